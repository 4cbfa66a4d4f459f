/**
 * The cluster as a picture: nodes holding their pods, interfaces, the LAN, external clients
 * and Service VIPs, with the packet of the current trace step on it.
 */
import { Background, Controls, ReactFlow, ReactFlowProvider, useReactFlow } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEffect, useMemo, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useLab } from '../store';
import { layoutGraph } from './layout';
import { NODE_TYPES } from './nodes';
import { PacketLayer } from './PacketLayer';
import { SaveImageButton } from './SaveImageButton';
import { SmallGraphHint } from './SmallGraphHint';

/** Fits the whole cluster into view again whenever the graph's box or the cluster changes. */
function FitOnResize({
  box,
  layoutKey,
}: {
  box: RefObject<HTMLDivElement | null>;
  layoutKey: unknown;
}) {
  const flow = useReactFlow();
  useEffect(() => {
    const el = box.current;
    if (el === null) return;
    const fit = () => void flow.fitView({ padding: 0.06 });
    const observer = new ResizeObserver(fit);
    observer.observe(el);
    fit();
    return () => observer.disconnect();
  }, [box, flow, layoutKey]);
  return null;
}

export function Graph() {
  const box = useRef<HTMLDivElement>(null);
  const { t } = useTranslation();
  const topology = useLab((s) => s.topology);
  const layout = useMemo(() => (topology ? layoutGraph(topology) : undefined), [topology]);
  if (layout === undefined) return <div className="graph graph-empty">{t('status.starting')}</div>;
  return (
    <div className="graph" role="region" aria-label={t('graph.label')} ref={box}>
      <ReactFlowProvider>
        <ReactFlow
          nodes={layout.nodes}
          edges={layout.edges}
          nodeTypes={NODE_TYPES}
          fitView
          fitViewOptions={{ padding: 0.06 }}
          minZoom={0.2}
          maxZoom={2.5}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          panActivationKeyCode={null}
          proOptions={{ hideAttribution: true }}
        >
          <Background gap={24} size={1} />
          <Controls showInteractive={false} aria-label={t('graph.controls')}>
            <SaveImageButton />
          </Controls>
          <PacketLayer layout={layout} />
          <FitOnResize box={box} layoutKey={layout} />
          <SmallGraphHint />
        </ReactFlow>
      </ReactFlowProvider>
    </div>
  );
}
