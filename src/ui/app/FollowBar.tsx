/** The projector window's bar (follow.ts): what it is, its text size and language. */
import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, type Language } from '../i18n';
import { useLab } from '../store';

export function FollowBar() {
  const { t, i18n } = useTranslation();
  const engine = useLab((s) => s.engine);
  const largeText = useLab((s) => s.largeText);
  const toggleLargeText = useLab((s) => s.toggleLargeText);
  const lang = (i18n.language === 'zh-CN' ? 'zh-CN' : 'en') as Language;
  return (
    <header className="top-bar">
      <h1>kube-proxy-lab</h1>
      <span role="status" data-testid="following">
        {t('top.following')}
      </span>
      <span className={`engine engine-${engine}`} data-testid="engine">
        {t(`status.${engine}`)}
      </span>
      <span className="spacer" />
      <button type="button" aria-pressed={largeText} onClick={toggleLargeText}>
        {t('top.large')}
      </button>
      <select
        aria-label={t('top.language')}
        value={lang}
        onChange={(e) => setLanguage(e.target.value as Language)}
      >
        {LANGUAGES.map((l) => (
          <option key={l} value={l}>
            {l === 'zh-CN' ? '中文' : 'English'}
          </option>
        ))}
      </select>
    </header>
  );
}
