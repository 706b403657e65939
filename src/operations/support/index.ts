export { supportBundle, supportFiles, type SupportBundleDeps } from './bundle.js';
export { tarArchive, untar, type TarFile } from './tar.js';
