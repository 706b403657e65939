// The layer rule: imports point down the rings of docs/architecture.md, through each area's index.ts. The rule
// and its data (ALLOWED, FORBIDDEN, ENTRIES) live in eslint.layers.js, which the generated tables of
// docs/architecture.md print (npm run generate).
export { layersRule as default } from '../../eslint.layers.js';
