export { supportBundle, supportFiles, type SupportBundleDeps } from './bundle.js';
export { tarArchive, untar } from './tar.js';
