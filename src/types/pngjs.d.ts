/** The part of pngjs (5.x, MIT, no bundled types) that omnipos uses: synchronous decoding to RGBA. */
declare module 'pngjs' {
  export const PNG: {
    sync: {
      read(buffer: Buffer, options?: { skipRescale?: boolean }): { width: number; height: number; data: Buffer };
      write(png: { width: number; height: number; data: Buffer }): Buffer;
    };
  };
}
