'use strict';
/*
 * A fake of an OpenAI-compatible chat model (the /v1 API that n8n's OpenAI Chat Model node calls
 * through LangChain's ChatOpenAI), so an AI Agent can run in a real n8n without a real model.
 *
 * - POST /v1/chat/completions answers with the next scripted turn, as one JSON answer or, when the
 *   request asks for `stream: true`, as server-sent events (`data: {chunk}` lines, then
 *   `data: [DONE]`), the way OpenAI streams: a role chunk, content or tool-call deltas, a chunk with
 *   the finish reason, and a usage chunk when `stream_options.include_usage` asks for one.
 * - GET /v1/models lists one model (n8n's model picker and credential test ask for it).
 *
 * A turn is `{ text }` (the model's final answer) or `{ toolCalls: [{ name, arguments }] }`, or a
 * function of the request body returning one of them (to name a tool the way the request offered
 * it). With no turn left, the model answers 500 so the test fails loudly instead of hanging.
 * Every request is recorded.
 */
const { LocalServer } = require('../helpers/localServer');

const MODEL_ID = 'fake-gpt';

class FakeModel extends LocalServer {
	constructor() {
		super('/v1');
		this.requests = [];
		this.turns = [];
		this.callCounter = 0;
	}

	/** Forgets what was received and scripts the turns of the next conversation. */
	script(...turns) {
		this.requests = [];
		this.turns = [...turns];
	}

	/** The chat completion requests received, in order. */
	completions() {
		return this.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'));
	}

	/** The tools the model was offered in its first completion request, by name. */
	toolsOffered() {
		const [first] = this.completions();
		return Object.fromEntries(
			(first?.body?.tools ?? []).map((tool) => [tool.function.name, tool.function]),
		);
	}

	/** The tool results the model was handed back (messages of role `tool`), in order, deduplicated by call id. */
	toolResults() {
		const byId = new Map();
		for (const request of this.completions()) {
			for (const message of request.body?.messages ?? []) {
				if (message.role === 'tool' && !byId.has(message.tool_call_id))
					byId.set(message.tool_call_id, contentText(message.content));
			}
		}
		return [...byId.values()];
	}

	handle(req, res) {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			const path = new URL(req.url, 'http://fake').pathname;
			const rawBody = Buffer.concat(chunks).toString('utf8');
			let body;
			try {
				body = rawBody ? JSON.parse(rawBody) : undefined;
			} catch {
				body = undefined;
			}
			this.requests.push({
				method: req.method,
				path,
				headers: req.headers,
				body,
				time: Date.now(),
			});
			if (req.method === 'GET' && path.endsWith('/models')) {
				return sendJson(res, 200, {
					object: 'list',
					data: [{ id: MODEL_ID, object: 'model', created: 0, owned_by: 'fake' }],
				});
			}
			if (req.method === 'POST' && path.endsWith('/chat/completions'))
				return this.complete(body ?? {}, res);
			sendJson(res, 404, {
				error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' },
			});
		});
	}

	complete(body, res) {
		const next = this.turns.shift();
		if (!next) {
			return sendJson(res, 500, {
				error: { message: 'the fake model has no scripted turn left', type: 'server_error' },
			});
		}
		const turn = typeof next === 'function' ? next(body) : next;
		const toolCalls = (turn.toolCalls ?? []).map((call) => ({
			id: `call_${++this.callCounter}`,
			type: 'function',
			function: {
				name: call.name,
				arguments:
					typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
			},
		}));
		const message = { role: 'assistant', content: toolCalls.length ? null : (turn.text ?? '') };
		if (toolCalls.length) message.tool_calls = toolCalls;
		const finishReason = toolCalls.length ? 'tool_calls' : 'stop';
		if (body.stream) return streamCompletion(res, body, message, finishReason);
		sendJson(res, 200, {
			id: `chatcmpl-${this.callCounter}-${Date.now()}`,
			object: 'chat.completion',
			created: Math.floor(Date.now() / 1000),
			model: body.model ?? MODEL_ID,
			choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
			usage: USAGE,
		});
	}
}

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function contentText(content) {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) return content.map((part) => part.text ?? '').join('');
	return JSON.stringify(content);
}

function sendJson(res, status, body) {
	res.writeHead(status, { 'Content-Type': 'application/json' });
	res.end(JSON.stringify(body));
}

/** The same answer as OpenAI streams it: deltas, then the finish reason, usage if asked, [DONE]. */
function streamCompletion(res, body, message, finishReason) {
	const base = {
		id: `chatcmpl-${Date.now()}`,
		object: 'chat.completion.chunk',
		created: Math.floor(Date.now() / 1000),
		model: body.model ?? MODEL_ID,
	};
	const chunk = (delta, finish = null, extra = {}) => ({
		...base,
		choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
		...extra,
	});
	const events = [chunk({ role: 'assistant', content: '' })];
	if (message.tool_calls) {
		message.tool_calls.forEach((call, index) => {
			const args = call.function.arguments;
			const half = Math.ceil(args.length / 2);
			events.push(
				chunk({
					tool_calls: [
						{
							index,
							id: call.id,
							type: 'function',
							function: { name: call.function.name, arguments: args.slice(0, half) },
						},
					],
				}),
			);
			events.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
		});
	} else {
		for (const word of message.content.split(/(?<= )/)) events.push(chunk({ content: word }));
	}
	events.push(chunk({}, finishReason));
	if (body.stream_options?.include_usage) events.push({ ...base, choices: [], usage: USAGE });
	res.writeHead(200, {
		'Content-Type': 'text/event-stream',
		'Cache-Control': 'no-cache',
		Connection: 'keep-alive',
	});
	for (const event of events) res.write(`data: ${JSON.stringify(event)}\n\n`);
	res.end('data: [DONE]\n\n');
}

async function startFakeModel() {
	const model = new FakeModel();
	await model.start();
	return model;
}

module.exports = { FakeModel, startFakeModel, MODEL_ID };
