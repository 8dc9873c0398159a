import type {
	IBinaryKeyData,
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { readAnswer } from './answer';
import type { AnswerOutcome } from './answer';
import { readAnswerConfig } from './config';
import type { AnswerConfig } from './config';
import { PAGE_HEADERS, renderPage } from './page';

/** What of n8n's (express) response the page needs: Node's own response methods. */
interface PageResponse {
	writeHead(status: number, headers: Record<string, string>): unknown;
	end(body: string): unknown;
}

/** A parameter as n8n resolves it for the webhook; one that cannot be read is the fallback. */
function readParameter(
	functions: IWebhookFunctions,
	name: string,
	fallback: string | unknown[],
): unknown {
	try {
		return functions.getNodeParameter(name, fallback as string);
	} catch {
		return fallback;
	}
}

function answerOf(functions: IWebhookFunctions, config: AnswerConfig): AnswerOutcome {
	const request = functions.getRequestObject();
	const question = readParameter(functions, 'message', '');
	return readAnswer(
		{
			method: String(request.method).toUpperCase(),
			query: (request.query ?? {}) as IDataObject,
			body: request.method === 'POST' ? (functions.getBodyData() ?? {}) : {},
			multipart: request.contentType === 'multipart/form-data',
		},
		config,
		new Date(),
		typeof question === 'string' ? question : undefined,
	);
}

/**
 * The item to resume with: n8n's output, and a Custom Form's files as binary properties, copied
 * from n8n's temporary files (which n8n removes once the request ends) as n8n's Form node does.
 */
async function resumeItem(
	functions: IWebhookFunctions,
	outcome: AnswerOutcome,
): Promise<INodeExecutionData> {
	const item: INodeExecutionData = { json: { data: outcome.data } };
	if (!outcome.uploads?.length) return item;
	const binary: IBinaryKeyData = {};
	for (const { property, file } of outcome.uploads) {
		const name = file.originalFilename ?? file.newFilename ?? property;
		binary[property] = await functions.nodeHelpers.copyBinaryFile(
			file.filepath,
			name,
			file.mimetype ?? undefined,
		);
	}
	return { ...item, binary };
}

/**
 * n8n calls this for a request to the node's waiting URL after checking its signature. It writes
 * the answer page itself; only a recorded answer resumes the execution, with n8n's output item.
 */
export async function sendAndWaitWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const config = readAnswerConfig((name, fallback) => readParameter(this, name, fallback));
	const outcome: AnswerOutcome =
		'problem' in config
			? { status: 400, view: { kind: 'refused', reason: 'This question cannot be answered.' } }
			: answerOf(this, config);
	// The files are copied before the page is sent: n8n removes them once the request ends.
	const item = outcome.data ? await resumeItem(this, outcome) : undefined;
	const response = this.getResponseObject() as unknown as PageResponse;
	response.writeHead(outcome.status, { ...PAGE_HEADERS });
	response.end(renderPage(outcome.view, 'problem' in config ? undefined : config.page));
	if (!item) return { noWebhookResponse: true };
	return { noWebhookResponse: true, workflowData: [[item]] };
}
