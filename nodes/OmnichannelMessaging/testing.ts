import { forgetSendOnceState, sendOnceStoreFigures } from './delivery/sendOnce';
import { forgetTemplateReads } from './delivery/templateCache';
import { resetTuning, setTuningForTests } from './tuning';

/*
 * The one seam tests reach the node's process-wide state and timings through, on the module
 * instance n8n loaded: each part keeps its state itself, this only asks it.
 */
export { resetTuning, sendOnceStoreFigures, setTuningForTests };

/** Forgets the template reads and send-once state, as a restart of n8n would; each test file gets its own pacers (jest loads the node anew per file). */
export function forgetProcessState(): void {
	forgetTemplateReads();
	forgetSendOnceState();
}
