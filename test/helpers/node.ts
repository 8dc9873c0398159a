import type { INode } from 'n8n-workflow';

/**
 * A node as n8n hands it to the code under test, for the tests that read no more of it than its
 * name: at the origin, with no parameters.
 */
export function bareNode(name: string, more: Partial<INode> = {}): INode {
	return {
		id: 'node-1',
		name,
		type: 'n8n-nodes-omnichannel-messaging.omnichannelMessaging',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		...more,
	};
}
