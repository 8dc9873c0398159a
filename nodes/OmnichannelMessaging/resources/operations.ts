import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/** One operation of the node: what `execute` runs for the chosen resource and operation. */
export type Operation = (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

/** A resource's operations, by the `operation` parameter's value. */
export type Operations = Record<string, Operation>;
