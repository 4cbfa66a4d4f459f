/**
 * The scenario as a plain file: open a YAML file from the computer (it replaces the editor's
 * text and runs, as a preset does), or save the editor's text as one. Both stay on the
 * machine: the browser reads the chosen file and writes the download itself; nothing is sent
 * anywhere. The same file runs in the CLI (`kube-proxy-lab run FILE`).
 */
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filePresetId, saveFileName } from '../app/presets';
import { useLab } from '../store';

/** The engine refuses longer scenarios before parsing them (MAX_SCENARIO_CHARS: 64 MiB). */
const MAX_FILE_BYTES = 64 << 20;

export function ScenarioFiles() {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const loadPreset = useLab((s) => s.loadPreset);
  const busy = useLab((s) => s.engine !== 'ready');
  const text = useLab((s) => s.text);
  const presetId = useLab((s) => s.presetId);

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
    URL.revokeObjectURL(url);
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
      {problem !== undefined && (
        <span className="warn-text" role="alert">
          {problem}
        </span>
      )}
    </>
  );
}
