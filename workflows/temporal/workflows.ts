import { processes } from '../processes/registry.js';
import { durableWorkflow } from './loop.js';

// The service's workflows bundle (worker.ts hands Temporal this file): one workflow, the bundle's
// default export, for every process of the registry. Only pure modules are imported here.
export default durableWorkflow(processes);
