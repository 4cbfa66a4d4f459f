/**
 * The switches that decide Service networking on a node, each with one sentence on what it
 * changes. Each one edits the scenario (the editor shows it) and applies it.
 */
import { useTranslation } from 'react-i18next';
import type { ProxyModeName } from '../../protocol/lab';
import { useLab } from '../store';

const MODES: ProxyModeName[] = ['iptables', 'ipvs', 'nftables'];
const HAIRPIN = ['hairpin-veth', 'promiscuous-bridge', 'none'] as const;

export function SettingsPanel() {
  const { t } = useTranslation();
  const topology = useLab((s) => s.topology);
  const change = useLab((s) => s.changeSetting);
  const busy = useLab((s) => s.engine !== 'ready');
  if (topology === undefined) return null;
  const unsupported = topology.proxyErrors.find((e) => e.startsWith('mode-unsupported:'));
  const otherErrors = topology.proxyErrors.filter((e) => !e.startsWith('mode-unsupported:'));
  return (
    <div className="settings">
      <fieldset>
        <legend>{t('settings.mode')}</legend>
        <div className="seg" role="radiogroup" aria-label={t('settings.mode')}>
          {MODES.map((m) => (
            <button
              key={m}
              type="button"
              role="radio"
              aria-checked={topology.mode === m}
              disabled={busy}
              onClick={() => void change({ kind: 'proxyMode', mode: m })}
            >
              {m}
            </button>
          ))}
        </div>
        <p className="explain">{t('settings.modeWhy')}</p>
        {unsupported !== undefined && (
          <p className="warn" role="status" data-testid="mode-unsupported">
            {t('settings.modeUnsupported', { mode: unsupported.split(':')[1] })}
          </p>
        )}
        {otherErrors.map((e) => (
          <p key={e} className="warn">
            <code>{e}</code>
          </p>
        ))}
      </fieldset>
      <fieldset>
        <legend>net.bridge.bridge-nf-call-iptables</legend>
        {topology.nodes.map((n) => (
          <label key={n.name} className="switch">
            <input
              type="checkbox"
              role="switch"
              checked={n.bridgeNfCallIptables !== '0'}
              disabled={busy}
              onChange={(e) =>
                void change({ kind: 'bridgeNf', node: n.name, on: e.target.checked })
              }
            />
            {n.name}
          </label>
        ))}
        <p className="explain">{t('settings.bridgeNfWhy')}</p>
      </fieldset>
      <fieldset>
        <legend>{t('settings.hairpin')}</legend>
        <select
          aria-label={t('settings.hairpin')}
          value={topology.hairpinMode}
          disabled={busy}
          onChange={(e) =>
            void change({ kind: 'hairpinMode', mode: e.target.value as (typeof HAIRPIN)[number] })
          }
        >
          {HAIRPIN.map((h) => (
            <option key={h}>{h}</option>
          ))}
        </select>
        <p className="explain">{t('settings.hairpinWhy')}</p>
      </fieldset>
      <fieldset>
        <legend>masqueradeAll</legend>
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={topology.masqueradeAll}
            disabled={busy}
            onChange={(e) => void change({ kind: 'masqueradeAll', on: e.target.checked })}
          />
          {t('settings.masqueradeAll')}
        </label>
        <p className="explain">{t('settings.masqueradeAllWhy')}</p>
      </fieldset>
    </div>
  );
}
