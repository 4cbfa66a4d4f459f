/** What the lab has to tell: the engine restarted (and nothing was lost), or a request failed. */
import { useTranslation } from 'react-i18next';
import { useLab } from '../store';

export function Notice() {
  const { t } = useTranslation();
  const notice = useLab((s) => s.notice);
  const dismiss = useLab((s) => s.dismissNotice);
  if (notice === undefined) return null;
  return (
    <div className={`notice notice-${notice.kind}`} role="alert" data-testid="notice">
      <span>
        {t(notice.kind === 'restarted' ? 'notice.restarted' : 'notice.error', {
          detail: notice.detail,
        })}
      </span>
      <button type="button" onClick={dismiss} aria-label={t('notice.dismiss')}>
        ×
      </button>
    </div>
  );
}
