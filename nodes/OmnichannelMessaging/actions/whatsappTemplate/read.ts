import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { REQUEST_TIMEOUT_MS } from '../../constants';
import { parameterReadError } from '../../helpers/errors/run';
import type { OperationContext } from '../../helpers/values';
import { failuresBecomeItems } from '../../helpers/values';
import { errorItem } from '../../helpers/errors/facts';
import { connectToService } from '../../transport';
import type { ServiceConnection } from '../../transport';

export type ReadItem = (
	this: IExecuteFunctions,
	itemIndex: number,
	connection: ServiceConnection,
	context: OperationContext,
) => Promise<IDataObject[]>;

function readTimeout(context: OperationContext): number {
	const { timeout } = context.get('requestOptions', 0, {}) as IDataObject;
	return typeof timeout === 'number' && timeout > 0 ? timeout : REQUEST_TIMEOUT_MS;
}

/** An item's failure is the run's error, or its output item with continue on fail and in a tool call. */
export async function runReadPipeline(
	this: IExecuteFunctions,
	readItem: ReadItem,
	context: OperationContext,
): Promise<INodeExecutionData[][]> {
	const connection = {
		...(await connectToService.call(this, context.node)),
		timeout: readTimeout(context),
	};
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < this.getInputData().length; itemIndex++) {
		try {
			const found = await readItem.call(this, itemIndex, connection, context);
			output.push(...found.map((json) => ({ json, pairedItem: { item: itemIndex } })));
		} catch (caught) {
			const error = parameterReadError(context.node, caught, itemIndex);
			if (!failuresBecomeItems(this, context.node)) throw error;
			output.push(errorItem(error, itemIndex));
		}
	}
	return [output];
}
