// Compares two V8 heap snapshots of one process (the soak's SOAK_SNAPSHOT_AT=2000,8000): what grew,
// by constructor (count and shallow size), and who holds the objects born between the two (their
// retainers: the holder's constructor and the edge's name, two steps up), so a growth can be named.
//
//   node --import tsx test/soak/heap-diff.ts A.heapsnapshot B.heapsnapshot [top]
//
// Node ids are stable within one process, so an object of B whose id is not in A was born between them.
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

interface Heap {
  /** Per node (by index): its class key, id, self size, first edge index, edge count. */
  key: string[];
  id: Float64Array;
  size: Float64Array;
  firstEdge: Uint32Array;
  edgeCount: Uint32Array;
  /** Retainers: for node i, the (node, edge name) pairs pointing at it. */
  retainers: Map<number, [number, string][]>;
}

function load(file: string, withRetainers: boolean): Heap {
  const s = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const nf = s.snapshot.meta.node_fields;
  const ef = s.snapshot.meta.edge_fields;
  const types = s.snapshot.meta.node_types[0];
  const edgeTypes = s.snapshot.meta.edge_types[0];
  const N = nf.length;
  const E = ef.length;
  const [iType, iName, iId, iSize, iEdges] = ['type', 'name', 'id', 'self_size', 'edge_count'].map((f) =>
    nf.indexOf(f),
  );
  const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f));
  const count = s.nodes.length / N;
  const key: string[] = new Array<string>(count);
  const id = new Float64Array(count);
  const size = new Float64Array(count);
  const firstEdge = new Uint32Array(count);
  const edgeCount = new Uint32Array(count);
  let edge = 0;
  for (let i = 0; i < count; i++) {
    const o = i * N;
    const type = types[s.nodes[o + iType!]!]!;
    const name = s.strings[s.nodes[o + iName!]!]!;
    key[i] =
      type === 'object' || type === 'native'
        ? name
        : type === 'closure'
          ? `(closure ${name || 'anonymous'})`
          : type === 'string' || type === 'concatenated string' || type === 'sliced string'
            ? '(string)'
            : `(${type})${type === 'code' || type === 'hidden' ? '' : ` ${name.slice(0, 40)}`}`;
    id[i] = s.nodes[o + iId!]!;
    size[i] = s.nodes[o + iSize!]!;
    firstEdge[i] = edge;
    edgeCount[i] = s.nodes[o + iEdges!]!;
    edge += edgeCount[i]! * E;
  }
  const retainers = new Map<number, [number, string][]>();
  if (withRetainers) {
    for (let i = 0; i < count; i++) {
      for (let e = firstEdge[i]!, end = e + edgeCount[i]! * E; e < end; e += E) {
        const t = edgeTypes[s.edges[e + eType!]!]!;
        if (t === 'weak' || t === 'shortcut') continue;
        const to = s.edges[e + eTo!]! / N;
        const raw = s.edges[e + eName!]!;
        const name = t === 'element' || t === 'hidden' ? `[${t}]` : String(s.strings[raw]);
        let list = retainers.get(to);
        if (!list) retainers.set(to, (list = []));
        list.push([i, name]);
      }
    }
  }
  return { key, id, size, firstEdge, edgeCount, retainers };
}

function byKey(h: Heap, only?: (i: number) => boolean): Map<string, { count: number; size: number }> {
  const out = new Map<string, { count: number; size: number }>();
  for (let i = 0; i < h.key.length; i++) {
    if (only && !only(i)) continue;
    const r = out.get(h.key[i]!) ?? { count: 0, size: 0 };
    r.count++;
    r.size += h.size[i]!;
    out.set(h.key[i]!, r);
  }
  return out;
}

const [fileA, fileB, topArg] = process.argv.slice(2);
if (!fileA || !fileB) {
  console.error('usage: heap-diff A.heapsnapshot B.heapsnapshot [top]');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const a = load(fileA, false);
const idsA = new Set(a.id);
const before = byKey(a);
const b = load(fileB, true);
const after = byKey(b);

const rows = [...new Set([...before.keys(), ...after.keys()])]
  .map((k) => {
    const x = before.get(k) ?? { count: 0, size: 0 };
    const y = after.get(k) ?? { count: 0, size: 0 };
    return { k, dCount: y.count - x.count, dSize: y.size - x.size, count: y.count };
  })
  .sort((p, q) => q.dSize - p.dSize);
const total = (m: Map<string, { size: number }>): number => [...m.values()].reduce((s, r) => s + r.size, 0);
console.log(`heap: ${(total(before) / 1048576).toFixed(1)} MiB -> ${(total(after) / 1048576).toFixed(1)} MiB`);
console.log('grew most (shallow bytes, count):');
for (const r of rows.slice(0, top))
  console.log(`  ${String(r.dSize).padStart(10)} ${String(r.dCount).padStart(8)}  ${r.k}`);

// Who holds what was born between A and B: for the top growing keys, the retainer chains of the new objects.
const born = (i: number): boolean => !idsA.has(b.id[i]!);
const bornByKey = byKey(b, born);
console.log('\nborn between the snapshots and still alive, by retainer (two steps up):');
for (const r of rows.slice(0, Math.min(top, 12))) {
  if (r.dSize <= 0) break;
  const chains = new Map<string, number>();
  for (let i = 0; i < b.key.length; i++) {
    if (b.key[i] !== r.k || !born(i)) continue;
    const up = (b.retainers.get(i) ?? []).slice(0, 1);
    if (up.length === 0) chains.set('(no retainer)', (chains.get('(no retainer)') ?? 0) + 1);
    for (const [p, edge] of up) {
      const up2 = (b.retainers.get(p) ?? []).slice(0, 1);
      const via = up2.length ? `${b.key[up2[0]![0]]}.${up2[0]![1]} -> ` : '';
      const chain = `${via}${b.key[p]}.${edge}`;
      chains.set(chain, (chains.get(chain) ?? 0) + 1);
    }
  }
  console.log(`  ${r.k}: ${bornByKey.get(r.k)?.count ?? 0} born and alive`);
  for (const [c, n] of [...chains].sort((p, q) => q[1] - p[1]).slice(0, 4))
    console.log(`      ${String(n).padStart(7)}  ${c}`);
}

// Objects in both snapshots whose own size grew (a Map's table, an array's backing store), with their holders.
const sizeInA = new Map<number, number>();
for (let i = 0; i < a.id.length; i++) sizeInA.set(a.id[i]!, a.size[i]!);
const chainOf = (i: number, depth: number): string => {
  const parts: string[] = [];
  let at = i;
  for (let d = 0; d < depth; d++) {
    const up = b.retainers.get(at)?.[0];
    if (!up) break;
    parts.unshift(`${b.key[up[0]]}.${up[1]}`);
    at = up[0];
  }
  return parts.join(' -> ');
};
const grown: { i: number; d: number }[] = [];
for (let i = 0; i < b.id.length; i++) {
  const was = sizeInA.get(b.id[i]!);
  if (was !== undefined && b.size[i]! > was) grown.push({ i, d: b.size[i]! - was });
}
grown.sort((p, q) => q.d - p.d);
console.log('\nlived through both and grew (bytes), with their holders:');
for (const { i, d } of grown.slice(0, top))
  console.log(`  ${String(d).padStart(9)}  ${b.key[i]} (now ${b.size[i]})  <- ${chainOf(i, 4)}`);

// The born objects of each growing key, grouped by their holder chain (four steps up), largest first.
const DEEP = Number(process.env.HEAP_DIFF_DEPTH ?? 4);
console.log(`\nborn and alive, by holder chain (${DEEP} steps up), bytes and count:`);
for (const r of rows.slice(0, 6)) {
  if (r.dSize <= 0) break;
  const chains = new Map<string, { n: number; bytes: number }>();
  for (let i = 0; i < b.key.length; i++) {
    if (b.key[i] !== r.k || !born(i)) continue;
    const c = chainOf(i, DEEP);
    const x = chains.get(c) ?? { n: 0, bytes: 0 };
    x.n++;
    x.bytes += b.size[i]!;
    chains.set(c, x);
  }
  console.log(`  ${r.k}:`);
  for (const [c, x] of [...chains].sort((p, q) => q[1].bytes - p[1].bytes).slice(0, 6))
    console.log(`    ${String(x.bytes).padStart(9)} ${String(x.n).padStart(6)}  ${c}`);
}

// Whose growth: an object belongs to a counterpart (the embedded sandbox host, the virtual pinpad or
// printer: not in the process in production) when a class of theirs is on its first retainer chain
// (up to 16 steps, through named holders first); to V8 for code and shapes themselves; else to the
// daemon (or the soak). A heuristic: an object held by both counts for the first one found. Alive bytes by
// owner in each snapshot, and the difference: the daemon's growth apart from the counterparts'.
const COUNTERPARTS =
  /^(VirtualPrinter|VirtualPinpad|SimEngine|SimSecureLayer|SimTables|SimDukpt|CardDeck|FaultSet|Faults|SandboxClock|CallbackDeliverer|WalletApi|PinpadFrameReader)$/;
function owners(h: Heap): Map<string, number> {
  const named = (k: string): boolean => !k.startsWith('(') && !k.startsWith('system /');
  const out = new Map<string, number>();
  for (let i = 0; i < h.key.length; i++) {
    const self = h.key[i]!;
    let o =
      self.startsWith('(code)') || self.startsWith('(hidden)') || self.startsWith('(object shape)')
        ? 'V8: code and shapes'
        : 'daemon (or the soak)';
    let at = i;
    for (let d = 0; d < 16 && o !== 'V8: code and shapes'; d++) {
      const k = h.key[at]!;
      if (COUNTERPARTS.test(k)) {
        o = `counterpart: ${k}`;
        break;
      }
      // up through a named holder when there is one (a Map's table, a closure's context are steps, not owners)
      const ups = h.retainers.get(at) ?? [];
      const up = ups.find(([p]) => named(h.key[p]!)) ?? ups[0];
      if (!up) break;
      at = up[0];
    }
    out.set(o, (out.get(o) ?? 0) + h.size[i]!);
  }
  return out;
}
const ownA = owners(load(fileA, true));
const ownB = owners(b);
console.log('\nalive bytes by owner (shallow): first snapshot, second, difference');
for (const o of [...new Set([...ownA.keys(), ...ownB.keys()])].sort(
  (p, q) => (ownB.get(q) ?? 0) - (ownA.get(q) ?? 0) - ((ownB.get(p) ?? 0) - (ownA.get(p) ?? 0)),
))
  console.log(
    `  ${String(ownA.get(o) ?? 0).padStart(10)} ${String(ownB.get(o) ?? 0).padStart(10)} ${String((ownB.get(o) ?? 0) - (ownA.get(o) ?? 0)).padStart(9)}  ${o}`,
  );
