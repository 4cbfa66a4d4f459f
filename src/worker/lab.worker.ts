/**
 * The Web Worker that hosts the engine: it only exposes a LabSession through comlink. All the
 * logic is in lab-session.ts, which tests run in Node.
 */
import { expose } from 'comlink';
import { LabSession } from './lab-session';

expose(new LabSession());
