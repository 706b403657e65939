/**
 * The fleet's topic tree under one terminal's prefix (`omnipos/<merchant>/<terminal>`):
 * `status` (retained, last will `{"online":false}`), `payments`, `alarms`, `day/<date>` (retained),
 * `cmd/<name>` (read by the terminal) and `cmd/<name>/result` (its answer).
 */
export class FleetTopics {
  constructor(readonly prefix: string) {}

  get status(): string {
    return `${this.prefix}/status`;
  }

  get payments(): string {
    return `${this.prefix}/payments`;
  }

  get alarms(): string {
    return `${this.prefix}/alarms`;
  }

  day(date: string): string {
    return `${this.prefix}/day/${date}`;
  }

  /** What the terminal subscribes to: one level under `cmd/` (the results are one level deeper). */
  get commands(): string {
    return `${this.prefix}/cmd/+`;
  }

  command(name: string): string {
    return `${this.prefix}/cmd/${name}`;
  }

  result(name: string): string {
    return `${this.prefix}/cmd/${name}/result`;
  }

  /** The command's name from a topic this terminal received, or undefined for another topic. */
  commandName(topic: string): string | undefined {
    const head = `${this.prefix}/cmd/`;
    if (!topic.startsWith(head)) return undefined;
    const name = topic.slice(head.length);
    return name.length > 0 && !name.includes('/') ? name : undefined;
  }
}

/** What a watcher reads from a topic under `omnipos/#`: the terminal's prefix and the leaf. */
export function splitFleetTopic(topic: string, root: string): { prefix: string; leaf: string } | undefined {
  if (!topic.startsWith(`${root}/`)) return undefined;
  const parts = topic.slice(root.length + 1).split('/');
  if (parts.length < 3) return undefined;
  return { prefix: `${root}/${parts[0]}/${parts[1]}`, leaf: parts.slice(2).join('/') };
}
