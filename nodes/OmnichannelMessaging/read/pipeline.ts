import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { REQUEST_TIMEOUT_MS } from '../constants';
import { parameterReadError } from '../errors';
import { showFor } from '../fields/displayOptions';
import { failuresBecomeItems } from '../helpers/toolCall';
import { errorItem } from '../output/results';
import { connectToService } from '../transport';
import type { ServiceConnection } from '../transport';

export type ReadItem = (this: IExecuteFunctions, itemIndex: number, connection: ServiceConnection) => Promise<IDataObject[]>;

/** The name n8n gave this collection while the reads were declarative (before 0.2.0): saved values keep working. */
export function readRequestOptionsField(resource: string, operation: string): INodeProperties {
	return {
		displayName: 'Request Options',
		name: 'requestOptions',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: showFor(resource, operation),
		options: [
			{
				displayName: 'Timeout',
				name: 'timeout',
				type: 'number',
				default: REQUEST_TIMEOUT_MS,
				typeOptions: { minValue: 1, numberPrecision: 0 },
				description: 'How long to wait for the service to answer, in milliseconds',
			},
		],
	};
}

function readTimeout(context: IExecuteFunctions): number {
	const { timeout } = context.getNodeParameter('requestOptions', 0, {}) as IDataObject;
	return typeof timeout === 'number' && timeout > 0 ? timeout : REQUEST_TIMEOUT_MS;
}

/** An item's failure is the run's error, or its output item with continue on fail and in a tool call. */
export async function runReadPipeline(this: IExecuteFunctions, readItem: ReadItem): Promise<INodeExecutionData[][]> {
	const connection = { ...(await connectToService.call(this)), timeout: readTimeout(this) };
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < this.getInputData().length; itemIndex++) {
		try {
			const found = await readItem.call(this, itemIndex, connection);
			output.push(...found.map((json) => ({ json, pairedItem: { item: itemIndex } })));
		} catch (caught) {
			const error = parameterReadError(this.getNode(), caught, itemIndex);
			if (!failuresBecomeItems(this)) throw error;
			output.push(errorItem(error, itemIndex));
		}
	}
	return [output];
}

export function readOperation(readItem: ReadItem) {
	return async function (this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runReadPipeline.call(this, readItem);
	};
}
