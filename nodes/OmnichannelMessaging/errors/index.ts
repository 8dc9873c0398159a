/*
 * Every error the node raises is built here: answers of the service and network faults
 * (service.ts, redirect.ts), one item's problems (items.ts), the summary of a stopped broadcast
 * (summary.ts), and the facts a workflow can act on (facts.ts). secrets.ts scrubs the credential's
 * secrets from whatever the service or the network says, before any of it is used.
 */
export * from './credentialTest';
export * from './facts';
export * from './items';
export * from './redirect';
export * from './secrets';
export * from './service';
export * from './summary';
