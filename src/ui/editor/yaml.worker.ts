// monaco-yaml's language worker, bundled by Vite as its own worker chunk.
import 'monaco-yaml/yaml.worker.js';
