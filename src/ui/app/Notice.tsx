/**
 * What the lab has to tell: the engine restarted (and nothing was lost), a request failed, a
 * shared link was opened (and the text it replaced can be put back) or could not be read.
 */
import { useTranslation } from 'react-i18next';
import { useLab } from '../store';

export function Notice() {
  const { t } = useTranslation();
  const notice = useLab((s) => s.notice);
  const dismiss = useLab((s) => s.dismissNotice);
  const beforeLink = useLab((s) => s.beforeLink);
  const restoreBeforeLink = useLab((s) => s.restoreBeforeLink);
  if (notice === undefined) return null;
  const text = {
    restarted: 'notice.restarted',
    error: 'notice.error',
    link: 'notice.link',
    'link-error': 'notice.linkError',
  }[notice.kind];
  return (
    <div className={`notice notice-${notice.kind}`} role="alert" data-testid="notice">
      <span>{t(text, { detail: notice.detail })}</span>
      {notice.kind === 'link' && beforeLink !== undefined && (
        <span>
          {t('notice.linkKept')}{' '}
          <button type="button" onClick={restoreBeforeLink}>
            {t('notice.linkRestore')}
          </button>
        </span>
      )}
      <button type="button" onClick={dismiss} aria-label={t('notice.dismiss')}>
        ×
      </button>
    </div>
  );
}
