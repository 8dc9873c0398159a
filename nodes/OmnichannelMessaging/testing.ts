import { forgetPacers, pacedServices } from './delivery/pacer';
import { forgetSendOnceState, sendOnceStoreFigures } from './delivery/sendOnce';
import { forgetTemplateReads } from './delivery/templateCache';
import { resetTuning, setTuningForTests } from './tuning';

/*
 * The one seam tests reach the node's process-wide state and timings through, on the module
 * instance n8n loaded: each part keeps its state itself, this only asks it.
 */
export { pacedServices, resetTuning, sendOnceStoreFigures, setTuningForTests };

/** Forgets what this process learned and holds, as a restart of n8n would (each test starts from it). */
export function forgetProcessState(): void {
	forgetPacers();
	forgetTemplateReads();
	forgetSendOnceState();
}
