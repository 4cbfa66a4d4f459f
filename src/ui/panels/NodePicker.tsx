import { useTranslation } from 'react-i18next';
import { useLab } from '../store';

/** The node whose tables the panels show: the one the packet is on, else the picked one. */
export function useActiveNode(): string {
  return useLab((s) => {
    const host = s.trace?.entries[s.cursor]?.step.at.host;
    if (host !== undefined && s.topology?.nodes.some((n) => n.name === host)) return host;
    return s.viewNode;
  });
}

export function NodePicker() {
  const { t } = useTranslation();
  const nodes = useLab((s) => s.topology?.nodes);
  const node = useActiveNode();
  const setViewNode = useLab((s) => s.setViewNode);
  return (
    <select
      aria-label={t('panels.node')}
      value={node}
      onChange={(e) => setViewNode(e.target.value)}
    >
      {(nodes ?? []).map((n) => (
        <option key={n.name}>{n.name}</option>
      ))}
    </select>
  );
}
