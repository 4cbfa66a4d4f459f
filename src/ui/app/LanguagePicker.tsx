/** The language choice of the top bars; `onChange` runs after the switch (e.g. the comments). */
import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, type Language } from '../i18n';

export function LanguagePicker({ onChange }: { onChange?: () => void }) {
  const { t, i18n } = useTranslation();
  const lang: Language = i18n.language === 'zh-CN' ? 'zh-CN' : 'en';
  return (
    <label>
      <span className="sr-only">{t('top.language')}</span>
      <select
        aria-label={t('top.language')}
        value={lang}
        onChange={(e) => {
          setLanguage(e.target.value as Language);
          onChange?.();
        }}
      >
        {LANGUAGES.map((l) => (
          <option key={l} value={l}>
            {l === 'zh-CN' ? '中文' : 'English'}
          </option>
        ))}
      </select>
    </label>
  );
}
