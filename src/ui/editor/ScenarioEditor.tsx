/**
 * The scenario editor (Monaco + monaco-yaml), loaded lazily. The store holds the text: every
 * keystroke is saved there (and so survives a reload); the engine's own diagnostics become
 * markers beside the schema's. Ctrl/Cmd+Enter applies.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLab } from '../store';
import { monaco, SCENARIO_URI } from './monaco-setup';

declare global {
  interface Window {
    __labEditor?: monaco.editor.IStandaloneCodeEditor;
  }
}

export default function ScenarioEditor() {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | undefined>(undefined);
  const text = useLab((s) => s.text);
  const setText = useLab((s) => s.setText);
  const applyText = useLab((s) => s.applyText);
  const diagnostics = useLab((s) => s.diagnostics);
  const largeText = useLab((s) => s.largeText);
  const reveal = useLab((s) => s.reveal);

  useEffect(() => {
    if (box.current === null) return;
    const uri = monaco.Uri.parse(SCENARIO_URI);
    const model = monaco.editor.getModel(uri) ?? monaco.editor.createModel(text, 'yaml', uri);
    const editor = monaco.editor.create(box.current, {
      model,
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 13,
      scrollBeyondLastLine: false,
      tabSize: 2,
      wordWrap: 'off',
      ariaLabel: t('editor.aria'),
    });
    editorRef.current = editor;
    window.__labEditor = editor;
    const sub = model.onDidChangeContent(() => setText(model.getValue()));
    editor.addAction({
      id: 'kube-proxy-lab.apply',
      label: t('editor.applyAction'),
      keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter],
      run: () => void applyText(),
    });
    return () => {
      sub.dispose();
      editor.dispose();
      model.dispose();
      delete window.__labEditor;
    };
  }, []);

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (model && model.getValue() !== text) model.setValue(text);
  }, [text]);

  useEffect(() => {
    editorRef.current?.updateOptions({ fontSize: largeText ? 17 : 13 });
  }, [largeText]);

  // "Show in scenario" (Inspector): the line in view and selected.
  useEffect(() => {
    const editor = editorRef.current;
    const line = reveal?.line;
    const model = editor?.getModel();
    if (editor === undefined || model == null || line === undefined) return;
    const n = Math.min(model.getLineCount(), Math.max(1, line));
    editor.revealLineInCenter(n);
    editor.setSelection(new monaco.Selection(n, 1, n, model.getLineMaxColumn(n)));
  }, [reveal]);

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    monaco.editor.setModelMarkers(
      model,
      'kube-proxy-lab',
      diagnostics.map((d) => ({
        severity:
          d.severity === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
        message: d.message,
        startLineNumber: Math.max(1, d.line),
        startColumn: Math.max(1, d.col),
        endLineNumber: Math.max(1, d.line),
        endColumn: model.getLineMaxColumn(Math.min(model.getLineCount(), Math.max(1, d.line))),
      })),
    );
  }, [diagnostics, text]);

  return <div className="monaco-box nokey" ref={box} data-testid="editor" />;
}
