/**
 * Lesson 8's chart: the scale experiment, measured by the engine in the worker on throwaway
 * clusters of 10 to 1,000 Services (10 endpoints each) in every proxy mode. Two log–log plots
 * (rules on node-1; rules a new connection's first packet is compared with) and the table of
 * every figure, which is also what a screen reader reads.
 */
import { useState } from 'react';
import type { ProxyModeName, ScaleFigures } from '../../protocol/lab';
import type { Lang } from '../../lessons/types';
import type { LessonHost } from './host';
import { t } from './strings';

/** The sizes measured in the browser; `npm run bench` goes on to 10,000. */
export const SCALE_SIZES: readonly number[] = [10, 30, 100, 300, 1_000];
const MODES: readonly ProxyModeName[] = ['iptables', 'ipvs', 'nftables'];
const COLOURS: Readonly<Record<ProxyModeName, string>> = {
  iptables: '#c62828',
  ipvs: '#1565c0',
  nftables: '#2e7d32',
};

const W = 300;
const H = 170;
const PAD = { left: 46, right: 20, top: 8, bottom: 28 };

const log = (v: number) => Math.log10(Math.max(1, v));

function Plot({
  points,
  value,
  title,
  lang,
}: {
  points: readonly ScaleFigures[];
  value: (p: ScaleFigures) => number;
  title: string;
  lang: Lang;
}) {
  const xs = [log(SCALE_SIZES[0]!), log(SCALE_SIZES.at(-1)!)] as const;
  const top = Math.ceil(log(Math.max(10, ...points.map(value))));
  const x = (n: number) =>
    PAD.left + ((log(n) - xs[0]) / (xs[1] - xs[0])) * (W - PAD.left - PAD.right);
  const y = (v: number) => H - PAD.bottom - (log(v) / top) * (H - PAD.top - PAD.bottom);
  const decades = Array.from({ length: top + 1 }, (_, i) => 10 ** i);
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} className="scale-plot">
      <text x={PAD.left} y={PAD.top + 2} className="plot-title">
        {title}
      </text>
      {decades.map((d) => (
        <g key={d}>
          <line x1={PAD.left} x2={W - PAD.right} y1={y(d)} y2={y(d)} className="grid" />
          <text x={PAD.left - 4} y={y(d) + 3} textAnchor="end">
            {d.toLocaleString(lang)}
          </text>
        </g>
      ))}
      {SCALE_SIZES.map((n) => (
        <text key={n} x={x(n)} y={H - PAD.bottom + 12} textAnchor="middle">
          {n.toLocaleString(lang)}
        </text>
      ))}
      <text x={(W + PAD.left) / 2} y={H - 3} textAnchor="middle">
        {t(lang, 'scaleServices')}
      </text>
      {MODES.map((mode) => {
        const line = points.filter((p) => p.mode === mode);
        return (
          <g key={mode} stroke={COLOURS[mode]} fill={COLOURS[mode]}>
            <polyline
              fill="none"
              strokeWidth={2}
              points={line.map((p) => `${x(p.services)},${y(value(p))}`).join(' ')}
            />
            {line.map((p) => (
              <circle key={p.services} cx={x(p.services)} cy={y(value(p))} r={2.5} />
            ))}
          </g>
        );
      })}
    </svg>
  );
}

export function ScaleChart({ host, lang }: { host: LessonHost; lang: Lang }) {
  const [points, setPoints] = useState<readonly ScaleFigures[]>([]);
  const [measuring, setMeasuring] = useState<number | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);

  const measure = async () => {
    setPoints([]);
    setError(undefined);
    try {
      // One size per call, so the chart grows as the worker measures.
      for (const n of SCALE_SIZES) {
        setMeasuring(n);
        const got = await host.scalePoint(n);
        setPoints((p) => [...p, ...got]);
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setMeasuring(undefined);
    }
  };

  return (
    <figure className="scale-chart" data-testid="scale-chart">
      <figcaption>{t(lang, 'scaleTitle')}</figcaption>
      <button
        type="button"
        data-testid="scale-measure"
        disabled={measuring !== undefined}
        onClick={() => void measure()}
      >
        {measuring !== undefined
          ? t(lang, 'scaleMeasuring', { n: measuring.toLocaleString(lang) })
          : t(lang, 'scaleMeasure')}
      </button>
      {error !== undefined && <p role="alert">{error}</p>}
      <ul className="scale-legend">
        {MODES.map((m) => (
          <li key={m} style={{ color: COLOURS[m] }}>
            ━ {m}
          </li>
        ))}
      </ul>
      <div className="scale-plots">
        <Plot points={points} value={(p) => p.rules} title={t(lang, 'scaleRules')} lang={lang} />
        <Plot
          points={points}
          value={(p) => p.firstPacketRules}
          title={t(lang, 'scaleFirstPacket')}
          lang={lang}
        />
      </div>
      {points.length > 0 && (
        <table className="scale-table" data-testid="scale-table">
          <thead>
            <tr>
              <th>{t(lang, 'scaleMode')}</th>
              <th>{t(lang, 'scaleServices')}</th>
              <th>{t(lang, 'scaleRulesCol')}</th>
              <th>{t(lang, 'scaleSets')}</th>
              <th>{t(lang, 'scaleFirstPacketCol')}</th>
              <th>{t(lang, 'scaleLookups')}</th>
              <th>{t(lang, 'scaleSync')}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={`${p.mode}-${p.services}`}>
                <td>{p.mode}</td>
                <td>{p.services.toLocaleString(lang)}</td>
                <td>{p.rules.toLocaleString(lang)}</td>
                <td>{p.setElements.toLocaleString(lang)}</td>
                <td>{p.firstPacketRules.toLocaleString(lang)}</td>
                <td>{p.firstPacketLookups}</td>
                <td>{p.firstSyncMs.toFixed(0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="scale-note">{t(lang, 'scaleNote')}</p>
    </figure>
  );
}
