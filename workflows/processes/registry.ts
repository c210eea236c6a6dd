import { ProcessRegistry } from '../engine/registry.js';
import { eraseProcess } from './erase/decide.js';
import { ping } from './ping/decide.js';

// Every durable process the service runs. The Temporal workflow bundle imports this file, so it
// and what it imports stay pure: decide modules only, never activities.
export const processes = new ProcessRegistry([eraseProcess, ping]);
