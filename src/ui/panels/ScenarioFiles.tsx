/**
 * The scenario as a plain file or a link: open a YAML file from the computer (it replaces the
 * editor's text and runs, as a preset does), save the editor's text as one, or copy a link
 * that carries it (share-link.ts). All of it stays on the machine: the browser reads the chosen
 * file and writes the download itself, and the link holds the text in its fragment; nothing is
 * sent anywhere. The same file runs in the CLI (`kube-proxy-lab run FILE`).
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filePresetId, saveFileName } from '../app/presets';
import { useLab } from '../store';

/** The engine refuses longer scenarios before parsing them (MAX_SCENARIO_CHARS: 64 MiB). */
const MAX_FILE_BYTES = 64 << 20;

export function ScenarioFiles() {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [link, setLink] = useState<{ url: string; copied: boolean } | undefined>(undefined);
  const loadPreset = useLab((s) => s.loadPreset);
  const busy = useLab((s) => s.engine !== 'ready');
  const text = useLab((s) => s.text);
  const presetId = useLab((s) => s.presetId);
  // A link shown for an older text would open that text: it goes when the text changes.
  useEffect(() => setLink(undefined), [text]);

  const open = async (file: File) => {
    if (file.size > MAX_FILE_BYTES) {
      setProblem(
        t('editor.fileTooLarge', { name: file.name, mib: (file.size / 2 ** 20).toFixed(1) }),
      );
      return;
    }
    setProblem(undefined);
    await loadPreset(filePresetId(file.name), await file.text());
  };

  const save = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/yaml' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = saveFileName(presetId);
    a.click();
    // Some browsers read the object URL after click() returns.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  const share = async () => {
    setProblem(undefined);
    const { encodeScenario, linkFor, MAX_LINK_CHARS } = await import('../app/share-link');
    const url = linkFor(window.location.href, await encodeScenario(text));
    if (url.length > MAX_LINK_CHARS) {
      setLink(undefined);
      setProblem(t('editor.linkTooLong', { n: url.length, max: MAX_LINK_CHARS }));
      return;
    }
    // Shown at once, to copy by hand where the clipboard is refused (a permission, an insecure
    // context) or slow to answer; said to be copied when it is.
    setLink({ url, copied: false });
    try {
      await navigator.clipboard.writeText(url);
      setLink((shown) => (shown?.url === url ? { url, copied: true } : shown));
    } catch {
      // The link stays shown.
    }
  };

  return (
    <>
      <button type="button" onClick={() => input.current?.click()} disabled={busy}>
        {t('editor.open')}
      </button>
      <input
        ref={input}
        type="file"
        accept=".yaml,.yml,text/yaml,application/yaml,text/plain"
        hidden
        data-testid="open-file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file !== undefined) void open(file);
        }}
      />
      <button type="button" onClick={save}>
        {t('editor.save')}
      </button>
      <button type="button" onClick={() => void share()}>
        {t('editor.link')}
      </button>
      {link !== undefined && (
        <span className="share-link" role="status">
          {t(link.copied ? 'editor.linkCopied' : 'editor.linkShown')}
          <input
            readOnly
            value={link.url}
            aria-label={t('editor.link')}
            data-testid="share-link"
            onFocus={(e) => e.target.select()}
          />
        </span>
      )}
      {problem !== undefined && (
        <span className="warn-text" role="alert">
          {problem}
        </span>
      )}
    </>
  );
}
