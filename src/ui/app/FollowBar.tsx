/** The projector window's bar (follow.ts): what it is, its text size and language. */
import { useTranslation } from 'react-i18next';
import { useLab } from '../store';
import { LanguagePicker } from './LanguagePicker';

export function FollowBar() {
  const { t } = useTranslation();
  const engine = useLab((s) => s.engine);
  const largeText = useLab((s) => s.largeText);
  const toggleLargeText = useLab((s) => s.toggleLargeText);
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
      <LanguagePicker />
    </header>
  );
}
