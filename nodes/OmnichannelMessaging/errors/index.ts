/*
 * Every error the node raises is built here: answers of the service and network faults
 * (service.ts), one item's problems (items.ts), the summary of a stopped broadcast (summary.ts),
 * and the facts a workflow can act on (facts.ts).
 */
export * from './facts';
export * from './items';
export * from './service';
export * from './summary';
