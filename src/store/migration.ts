/** One numbered schema step. Versions start at 1 and have no gaps. */
export interface Migration {
  version: number;
  name: string;
  /** SQL run inside the migration transaction. */
  up: string;
}
