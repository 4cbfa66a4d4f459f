/**
 * Where everything sits on the graph, in flow coordinates: node groups side by side with their
 * interfaces and pods, the LAN above them, external clients and Service VIP badges on top.
 * Computed from the topology alone (no React), so the packet layer can find any interface.
 */
import type { Edge, Node } from '@xyflow/react';
import type { Topology } from '../../protocol/lab';

export const POD_W = 136;
export const POD_H = 44;
const VETH_H = 20;
const GAP = 12;
const COLS = 2;
const CELL_H = VETH_H + POD_H + 14;
const NODE_W = COLS * POD_W + (COLS + 1) * GAP;
const NODE_GAP = 48;
const HEADER = 30;
const LAN_Y = -70;
const TOP_Y = -170;

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface GraphLayout {
  readonly nodes: Node[];
  readonly edges: Edge[];
  /** Absolute centre of every place a packet can be: `host` or `host|iface`. */
  readonly anchors: ReadonlyMap<string, Point>;
  /** Where a node's eth0 meets the LAN bar. */
  readonly lanTaps: ReadonlyMap<string, Point>;
}

export const anchorKey = (host: string, iface?: string) => (iface ? `${host}|${iface}` : host);

export function layoutGraph(topo: Topology): GraphLayout {
  const nodes: Node[] = [];
  const edges: Edge[] = [];
  const anchors = new Map<string, Point>();
  const lanTaps = new Map<string, Point>();
  const edge = (source: string, target: string) =>
    edges.push({ id: `${source}->${target}`, source, target, type: 'straight', focusable: false });

  let x = 0;
  for (const node of topo.nodes) {
    const rows = Math.max(1, Math.ceil(node.pods.length / COLS));
    const height = HEADER + 90 + rows * CELL_H;
    const gid = `node:${node.name}`;
    nodes.push({
      id: gid,
      type: 'nodeGroup',
      position: { x, y: 0 },
      data: { node },
      style: { width: NODE_W, height },
      selectable: false,
    });
    const place = (
      id: string,
      type: string,
      rx: number,
      ry: number,
      w: number,
      h: number,
      data: Record<string, unknown>,
      key: string,
    ) => {
      nodes.push({
        id,
        type,
        parentId: gid,
        extent: 'parent',
        position: { x: rx, y: ry },
        data,
        style: { width: w, height: h },
        draggable: false,
        selectable: false,
      });
      anchors.set(key, { x: x + rx + w / 2, y: ry + h / 2 });
    };
    const eth0 = node.interfaces.find((i) => i.name === 'eth0');
    place(
      `if:${node.name}:eth0`,
      'iface',
      NODE_W / 2 - 70,
      HEADER,
      140,
      24,
      { iface: eth0 ?? { name: 'eth0', type: 'nic', addresses: [] }, host: node.name },
      anchorKey(node.name, 'eth0'),
    );
    const cni0 = node.interfaces.find((i) => i.name === 'cni0');
    const ipvs = node.interfaces.find((i) => i.name === 'kube-ipvs0');
    const bridgeW = ipvs ? NODE_W / 2 - 2 * GAP : NODE_W - 2 * GAP;
    place(
      `if:${node.name}:cni0`,
      'iface',
      GAP,
      HEADER + 48,
      bridgeW,
      24,
      {
        iface: cni0 ?? { name: 'cni0', type: 'bridge', addresses: [] },
        host: node.name,
        bridge: true,
      },
      anchorKey(node.name, 'cni0'),
    );
    if (ipvs) {
      place(
        `if:${node.name}:kube-ipvs0`,
        'iface',
        NODE_W / 2 + GAP,
        HEADER + 48,
        bridgeW,
        24,
        { iface: ipvs, host: node.name },
        anchorKey(node.name, 'kube-ipvs0'),
      );
    }
    anchors.set(node.name, { x: x + NODE_W / 2, y: HEADER + 60 });
    edge(`if:${node.name}:cni0`, `if:${node.name}:eth0`);
    node.pods.forEach((pod, i) => {
      const col = i % COLS;
      const row = Math.floor(i / COLS);
      const px = GAP + col * (POD_W + GAP);
      const py = HEADER + 90 + row * CELL_H;
      if (pod.veth !== undefined) {
        const vid = `if:${node.name}:${pod.veth}`;
        place(
          vid,
          'iface',
          px + 14,
          py,
          POD_W - 28,
          VETH_H - 2,
          { iface: { name: pod.veth, type: 'veth', addresses: [] }, host: node.name, small: true },
          anchorKey(node.name, pod.veth),
        );
        edge(vid, `if:${node.name}:cni0`);
        edge(`pod:${pod.target}`, vid);
      }
      place(`pod:${pod.target}`, 'pod', px, py + VETH_H + 4, POD_W, POD_H, { pod }, pod.target);
      anchors.set(anchorKey(pod.target, 'eth0'), anchors.get(pod.target)!);
    });
    const tap = { x: x + NODE_W / 2, y: LAN_Y + 10 };
    lanTaps.set(node.name, tap);
    nodes.push({
      id: `tap:${node.name}`,
      type: 'tap',
      position: { x: tap.x - 1, y: tap.y },
      data: {},
      draggable: false,
      selectable: false,
    });
    edge(`if:${node.name}:eth0`, `tap:${node.name}`);
    x += NODE_W + NODE_GAP;
  }
  const width = Math.max(x - NODE_GAP, 400);
  nodes.push({
    id: 'lan',
    type: 'lan',
    position: { x: -20, y: LAN_Y },
    data: { width: width + 40 },
    style: { width: width + 40, height: 20 },
    draggable: false,
    selectable: false,
    zIndex: -1,
  });

  let ex = 0;
  for (const ext of topo.externals) {
    const id = `ext:${ext.name}`;
    nodes.push({
      id,
      type: 'external',
      position: { x: ex, y: TOP_Y },
      data: { ext },
      style: { width: 150, height: 48 },
      draggable: false,
      selectable: false,
    });
    anchors.set(ext.name, { x: ex + 75, y: TOP_Y + 24 });
    anchors.set(anchorKey(ext.name, 'eth0'), { x: ex + 75, y: TOP_Y + 24 });
    const tap = { x: ex + 75, y: LAN_Y + 10 };
    lanTaps.set(ext.name, tap);
    nodes.push({
      id: `tap:${ext.name}`,
      type: 'tap',
      position: { x: tap.x - 1, y: tap.y },
      data: {},
      draggable: false,
      selectable: false,
    });
    edge(`tap:${ext.name}`, id);
    ex += 170;
  }
  const services = topo.services.filter((s) => s.clusterIP !== '' && s.clusterIP !== 'None');
  nodes.push({
    id: 'services',
    type: 'services',
    position: { x: ex + 10, y: TOP_Y - 6 },
    data: { services },
    style: { width: Math.max(200, width - ex - 10) },
    draggable: false,
    selectable: false,
  });
  return { nodes, edges, anchors, lanTaps };
}
