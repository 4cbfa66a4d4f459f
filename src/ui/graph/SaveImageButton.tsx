/**
 * The graph as a PNG, for slides and handouts: the whole cluster at twice its natural size on a
 * white background, whatever the current zoom. The browser draws and saves it itself
 * (html-to-image, loaded when first used; 1.11.11, the version React Flow's own example pins);
 * nothing is uploaded.
 */
import { ControlButton, getViewportForBounds, useReactFlow } from '@xyflow/react';
import { useTranslation } from 'react-i18next';

const MARGIN = 24;

export function SaveImageButton() {
  const { t } = useTranslation();
  const flow = useReactFlow();
  const save = async () => {
    const viewport = document.querySelector<HTMLElement>('.graph .react-flow__viewport');
    if (viewport === null) return;
    const { toPng } = await import('html-to-image');
    // The instance's own bounds: it knows where nested nodes (pods in a node) really are.
    const bounds = flow.getNodesBounds(flow.getNodes());
    const width = Math.ceil(bounds.width + 2 * MARGIN);
    const height = Math.ceil(bounds.height + 2 * MARGIN);
    const at = getViewportForBounds(bounds, width, height, 1, 1, 0);
    const url = await toPng(viewport, {
      backgroundColor: '#ffffff',
      width,
      height,
      pixelRatio: 2,
      style: {
        width: `${width}px`,
        height: `${height}px`,
        transform: `translate(${at.x}px, ${at.y}px) scale(${at.zoom})`,
      },
    });
    const a = document.createElement('a');
    a.href = url;
    a.download = 'cluster.png';
    a.click();
  };
  return (
    <ControlButton
      onClick={() => void save()}
      title={t('graph.saveImage')}
      aria-label={t('graph.saveImage')}
    >
      ⤓
    </ControlButton>
  );
}
