// The delivery engine's one public entry. An operation only says how an item becomes a request
// (PrepareSend); checking, pacing, retries after a 429, Send Once and the template cache stay
// behind this file, so that they can change without touching an operation.
export { sendOptionsField } from './session';
export { runSendPipeline } from './pipeline';
export { logWaitAnswered } from './runLog';
export type { PreparedSend, PrepareSend, SendSession } from './session';
export { forgetTemplate, templateForSends } from './templateCache';
export type { TemplateCopy } from './templateCache';
