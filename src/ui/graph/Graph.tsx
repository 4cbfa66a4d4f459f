/**
 * The cluster as a picture: nodes holding their pods, interfaces, the LAN, external clients
 * and Service VIPs, with the packet of the current trace step on it.
 */
import {
  Background,
  Controls,
  ReactFlow,
  ReactFlowProvider,
  useNodesInitialized,
  useReactFlow,
  type FitViewOptions,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useLab } from '../store';
import { layoutGraph } from './layout';
import { NODE_TYPES } from './nodes';
import { PacketLayer } from './PacketLayer';
import { SaveImageButton } from './SaveImageButton';
import { SmallGraphHint } from './SmallGraphHint';

/** Where the zoom controls sit: a column at the left edge or a row at the bottom edge. */
export type ControlsSide = 'left' | 'bottom';

/**
 * fitView's margin, plus a strip along the controls' side that no node is fitted into: the
 * controls (26px buttons, 15px from the edge: @xyflow/react's style.css) used to cover the
 * pods at 1280×720 and eth0, cni0 and the veths too at 1024×768.
 */
const CONTROLS_ROOM = '50px';
function fitOptions(side: ControlsSide): FitViewOptions {
  return { padding: { x: 0.06, y: 0.06, [side]: CONTROLS_ROOM } };
}

/**
 * Fits the whole cluster into view again whenever the graph's box or the cluster changes, and
 * puts the controls on the side where the picture has room to spare: beside it when the box is
 * wider than the cluster's shape (the strip then costs no zoom), below it when narrower.
 */
function FitOnResize({
  box,
  layoutKey,
  onSide,
}: {
  box: RefObject<HTMLDivElement | null>;
  layoutKey: unknown;
  onSide: (side: ControlsSide) => void;
}) {
  const flow = useReactFlow();
  const measured = useNodesInitialized();
  useEffect(() => {
    const el = box.current;
    if (el === null) return;
    const fit = () => {
      // Not laid out yet (or hidden): no shape to compare, nothing to fit.
      if (el.clientWidth === 0 || el.clientHeight === 0) return;
      const bounds = flow.getNodesBounds(flow.getNodes());
      const wide =
        bounds.width <= 0 ||
        bounds.height <= 0 ||
        el.clientWidth / el.clientHeight >= bounds.width / bounds.height;
      const side: ControlsSide = wide ? 'left' : 'bottom';
      onSide(side);
      void flow.fitView(fitOptions(side));
    };
    const observer = new ResizeObserver(fit);
    observer.observe(el);
    fit();
    return () => observer.disconnect();
  }, [box, flow, layoutKey, measured, onSide]);
  return null;
}

export function Graph() {
  const box = useRef<HTMLDivElement>(null);
  const { t } = useTranslation();
  const topology = useLab((s) => s.topology);
  const layout = useMemo(() => (topology ? layoutGraph(topology) : undefined), [topology]);
  const [side, setSide] = useState<ControlsSide>('left');
  if (layout === undefined) return <div className="graph graph-empty">{t('status.starting')}</div>;
  return (
    <div className="graph" role="region" aria-label={t('graph.label')}>
      <ReactFlowProvider>
        {/* Above the picture, not over it: laid over the graph it hid the laptop and the
            LAN/Services row at 1280×720 with Large text. */}
        <SmallGraphHint />
        <div className="graph-canvas" ref={box}>
          <ReactFlow
            nodes={layout.nodes}
            edges={layout.edges}
            nodeTypes={NODE_TYPES}
            fitView
            fitViewOptions={fitOptions(side)}
            minZoom={0.2}
            maxZoom={2.5}
            nodesDraggable={false}
            nodesConnectable={false}
            elementsSelectable={false}
            panActivationKeyCode={null}
            proOptions={{ hideAttribution: true }}
          >
            <Background gap={24} size={1} />
            <Controls
              showInteractive={false}
              aria-label={t('graph.controls')}
              orientation={side === 'left' ? 'vertical' : 'horizontal'}
              fitViewOptions={fitOptions(side)}
            >
              <SaveImageButton />
            </Controls>
            <PacketLayer layout={layout} />
            <FitOnResize box={box} layoutKey={layout} onSide={setSide} />
          </ReactFlow>
        </div>
      </ReactFlowProvider>
    </div>
  );
}
