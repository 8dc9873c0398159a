import { NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

/** The Channel list in the editor: this deployment offers none, so the channel is given by its ID. */
export function channelListMissingError(node: INode): NodeOperationError {
	return new NodeOperationError(node, 'This service has no channel list (it answered 404)', {
		description: 'Switch Channel to "By ID" and enter the channel number, for example 12.',
	});
}
