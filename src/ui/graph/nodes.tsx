/**
 * The graph's node types. Each one subscribes only to whether the packet is on it right now,
 * so a moving packet re-renders one or two boxes, not the graph.
 */
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TopoInterface, TopoNode, TopoPod, TopoService } from '../../protocol/lab';
import { useLab } from '../store';

function Handles() {
  return (
    <>
      <Handle type="source" position={Position.Top} isConnectable={false} />
      <Handle type="target" position={Position.Bottom} isConnectable={false} />
    </>
  );
}

/** True when the current trace step happens at this host (and interface, when given). */
function useHere(host: string, iface?: string): boolean {
  return useLab((s) => {
    const e = s.trace?.entries[s.cursor];
    if (e === undefined) return false;
    const at = e.step.at;
    return at.host === host && (iface === undefined || at.iface === iface);
  });
}

export const NodeGroup = memo(function NodeGroup({ data }: NodeProps) {
  const { t } = useTranslation();
  const node = (data as { node: TopoNode }).node;
  const here = useHere(node.name);
  return (
    <div className={`node-group${here ? ' here' : ''}`}>
      <div className="node-title">
        <strong>{node.name}</strong> <code>{node.internalIP}</code>
        {node.bridgeNfCallIptables === '0' && (
          <span className="warn-badge" title={t('graph.bridgeNfOff')}>
            br-nf 0
          </span>
        )}
      </div>
    </div>
  );
});

export const IfaceNode = memo(function IfaceNode({ data }: NodeProps) {
  const { iface, host, small } = data as { iface: TopoInterface; host: string; small?: boolean };
  const here = useHere(host, iface.name);
  return (
    <div className={`iface iface-${iface.type}${small ? ' small' : ''}${here ? ' here' : ''}`}>
      <Handles />
      <span className="iface-name">{iface.name}</span>
      {!small && iface.addresses[0] !== undefined && <code>{iface.addresses[0]}</code>}
    </div>
  );
});

export const PodNode = memo(function PodNode({ data }: NodeProps) {
  const { t } = useTranslation();
  const pod = (data as { pod: TopoPod }).pod;
  const here = useHere(pod.target);
  const setDraft = useLab((s) => s.setDraft);
  return (
    <button
      type="button"
      className={`pod${here ? ' here' : ''}${pod.ready ? '' : ' not-ready'}`}
      title={t('graph.pickSource', { name: pod.target })}
      onClick={() => setDraft({ from: pod.target })}
    >
      <Handles />
      <span className="pod-name">{pod.name}</span>
      <code>{pod.ip}</code>
    </button>
  );
});

export const ExternalNode = memo(function ExternalNode({ data }: NodeProps) {
  const { t } = useTranslation();
  const ext = (data as { ext: { name: string; address: string } }).ext;
  const here = useHere(ext.name);
  const setDraft = useLab((s) => s.setDraft);
  return (
    <button
      type="button"
      className={`external${here ? ' here' : ''}`}
      title={t('graph.pickSource', { name: ext.name })}
      onClick={() => setDraft({ from: ext.name })}
    >
      <Handle type="target" position={Position.Bottom} isConnectable={false} />
      <span>{ext.name}</span>
      <code>{ext.address}</code>
    </button>
  );
});

export function LanNode() {
  const { t } = useTranslation();
  return <div className="lan">{t('graph.lan')} 192.168.1.0/24</div>;
}

export function TapNode() {
  return (
    <div className="tap">
      <Handle type="source" position={Position.Top} isConnectable={false} />
      <Handle type="target" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}

export const ServicesNode = memo(function ServicesNode({ data }: NodeProps) {
  const { t } = useTranslation();
  const services = (data as { services: TopoService[] }).services;
  const setDraft = useLab((s) => s.setDraft);
  const target = useLab((s) =>
    s.draft.to.kind === 'service' ? `${s.draft.to.namespace}/${s.draft.to.name}` : '',
  );
  return (
    <div className="services" role="group" aria-label={t('graph.services')}>
      <div className="services-title">{t('graph.services')}</div>
      {services.map((s) => {
        const id = `${s.namespace}/${s.name}`;
        const p = s.ports[0];
        return (
          <button
            type="button"
            key={id}
            className={`vip${id === target ? ' picked' : ''}`}
            title={t('graph.pickService', { name: id, ip: s.clusterIP })}
            onClick={() =>
              setDraft({
                to: { kind: 'service', namespace: s.namespace, name: s.name, port: p?.port ?? 80 },
                protocol: p?.protocol === 'UDP' ? 'udp' : 'tcp',
              })
            }
          >
            <span>{s.name}</span> <code>{s.clusterIP}</code>
          </button>
        );
      })}
    </div>
  );
});

export const NODE_TYPES = {
  nodeGroup: NodeGroup,
  iface: IfaceNode,
  pod: PodNode,
  external: ExternalNode,
  lan: LanNode,
  tap: TapNode,
  services: ServicesNode,
};
