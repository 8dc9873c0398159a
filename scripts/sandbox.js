#!/usr/bin/env node
'use strict';
/*
 * `npm run sandbox`: the fake Omnichannel Messaging service (test/fake-service) as a local
 * sandbox to point a credential at. Seeded with WhatsApp channels 12 and 13, each with the
 * templates 101..108. Logs every request (method, path, status) until Ctrl-C.
 *
 *   SANDBOX_PORT     port to listen on (default 4010)
 *   SANDBOX_HOST     address to listen on (default 127.0.0.1)
 *   SANDBOX_API_KEY  the API key it accepts (default demo-api-key)
 *   SANDBOX_LATENCY_MS  delay before each answer (default 0)
 *   SANDBOX_CONCURRENCY_LIMIT  requests in flight above which it answers 429 with Retry-After: 1
 *                    (default none)
 *   SANDBOX_RATE_LIMIT  sends (POST) per second, a token bucket holding one second's worth: a send
 *                    that finds it empty gets 429 with Retry-After in whole seconds (default none)
 * The two limits let a workflow meet a rate-limited service, as a broadcast does in production.
 *
 * The sandbox sends nothing to anyone, so it shows what a phone would have received instead: one
 * line per message it accepted, with the text and its answer link, and GET /outbox, a page of the
 * last messages. They are the builder's own test data on their own computer; the node's logs
 * still hold none of it.
 */
const { FakeService } = require('../test/fake-service');
const { sandboxTemplates } = require('../test/fake-service/seed');

const OUTBOX_SIZE = 100;
const SENDS = {
	'/stable/open/customers/send-text-message': (body) => ({
		to: `Message to customer ${body.customer_id}`,
		text: body.text,
	}),
	'/stable/open/customers/send-attachment-message': (body) => ({
		to: `Attachment to customer ${body.customer_id}`,
		text: `${body.attachment_type} ${body.attachment_url}`,
	}),
};

/** A template's body with the sent variables in it, as the phone shows it; a missing one stays "{{n}}". */
function renderedTemplate(service, body) {
	const templates = service.templates.get(Number(body.channel_id)) ?? [];
	const template = templates.find((t) => t.id === Number(body.template_id));
	const values = body.attributes ?? {};
	return {
		to: `WhatsApp to ${body.customer_phone} (template ${body.template_id})`,
		text: String(template?.body ?? '').replace(
			/\{\{\s*(\d{1,4})\s*\}\}/g,
			(whole, digits) => values[String(Number(digits))] ?? whole,
		),
	};
}

const escapeHtml = (text) =>
	String(text).replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
	);

/** Escaped text whose links can be opened with a click. */
function withLinks(text) {
	return String(text)
		.split(/(https?:\/\/[^\s<>"']+)/)
		.map((part, i) =>
			i % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part),
		)
		.join('');
}

/** The fake service, keeping what it accepted in an outbox and serving it at /outbox. */
class Sandbox extends FakeService {
	constructor(options, onMessage) {
		super(options);
		this.outbox = [];
		this.onMessage = onMessage;
	}

	handle(req, res) {
		if (req.method === 'GET' && new URL(req.url, 'http://sandbox').pathname === '/outbox') {
			res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
			res.end(this.outboxPage());
			return;
		}
		super.handle(req, res);
	}

	route(record) {
		const answer = super.route(record);
		const describe =
			record.path === '/stable/open/whatsapp/send-template-message'
				? (body) => renderedTemplate(this, body)
				: SENDS[record.path];
		if (answer[0] === 200 && describe) {
			const message = { at: new Date().toISOString(), ...describe(record.body) };
			this.outbox = [message, ...this.outbox].slice(0, OUTBOX_SIZE);
			this.onMessage(message);
		}
		return answer;
	}

	outboxPage() {
		const items = this.outbox.map(
			(m) => `<li><b>${escapeHtml(`${m.at} ${m.to}`)}</b><pre>${withLinks(m.text)}</pre></li>`,
		);
		return (
			'<!DOCTYPE html><html><head><meta charset="utf-8">' +
			'<meta name="viewport" content="width=device-width, initial-scale=1">' +
			'<title>Sandbox outbox</title><style>pre{white-space:pre-wrap}</style></head><body>' +
			`<h1>Sandbox outbox</h1><p>The last ${OUTBOX_SIZE} messages the sandbox accepted, newest ` +
			`first (reload for new ones). None left this computer.</p><ol>${items.join('')}</ol>` +
			'</body></html>'
		);
	}
}

const DEFAULTS = { port: 4010, host: '127.0.0.1', apiKey: 'demo-api-key', latencyMs: 0 };

/** A positive number from the environment, or undefined when unset; anything else is a mistake worth stopping for. */
function limitFromEnv(env, name) {
	const raw = env[name];
	if (raw === undefined || raw === '') return undefined;
	const value = Number(raw);
	if (!Number.isFinite(value) || value <= 0)
		throw new Error(`${name} must be a positive number, got "${raw}"`);
	return value;
}

function sandboxOptionsFromEnv(env = process.env) {
	return {
		port: env.SANDBOX_PORT !== undefined ? Number(env.SANDBOX_PORT) : DEFAULTS.port,
		host: env.SANDBOX_HOST || DEFAULTS.host,
		apiKey: env.SANDBOX_API_KEY || DEFAULTS.apiKey,
		latencyMs: Number(env.SANDBOX_LATENCY_MS || DEFAULTS.latencyMs),
		concurrencyLimit: limitFromEnv(env, 'SANDBOX_CONCURRENCY_LIMIT'),
		rateLimitPerSecond: limitFromEnv(env, 'SANDBOX_RATE_LIMIT'),
	};
}

function time() {
	return new Date().toISOString().slice(11, 23);
}

/**
 * Starts the sandbox; `log` gets one line per finished request: "METHOD /path?query -> status", and
 * for each message it accepted "time To: text", the text's further lines indented (blank ones left out).
 */
async function startSandbox({
	port,
	host,
	apiKey,
	latencyMs,
	concurrencyLimit,
	rateLimitPerSecond,
	log = console.log,
} = {}) {
	const given = { port, host, apiKey, latencyMs, concurrencyLimit, rateLimitPerSecond };
	const options = {
		...DEFAULTS,
		...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
	};
	const printMessage = ({ to, text }) => {
		const [first, ...rest] = String(text).split('\n');
		log(`${time()} ${to}: ${first}`);
		for (const line of rest) if (line.trim()) log(`    ${line}`);
	};
	const service = new Sandbox(
		{
			apiKey: options.apiKey,
			latencyMs: options.latencyMs,
			concurrencyLimit: options.concurrencyLimit,
			rateLimitPerSecond: options.rateLimitPerSecond,
			templates: sandboxTemplates(),
		},
		printMessage,
	);
	service.server.on('request', (req, res) => {
		const started = Date.now();
		res.on('close', () => {
			const status = res.headersSent ? res.statusCode : 'no answer';
			log(`${time()} ${req.method} ${req.url} -> ${status} (${Date.now() - started} ms)`);
		});
	});
	try {
		await service.start(options.port, options.host);
	} catch (error) {
		if (error.code === 'EADDRINUSE') {
			throw new Error(
				`port ${options.port} is in use: stop whatever listens there or set SANDBOX_PORT`,
			);
		}
		throw error;
	}
	return { service, url: service.url, apiKey: options.apiKey };
}

function describeLimits(service) {
	const limits = [];
	if (Number.isFinite(service.concurrencyLimit))
		limits.push(`${service.concurrencyLimit} requests in flight`);
	if (Number.isFinite(service.rateLimitPerSecond))
		limits.push(`${service.rateLimitPerSecond} sends per second`);
	return limits.length ? `${limits.join(', ')} (429 with Retry-After above)` : 'none';
}

async function main() {
	const { service, url, apiKey } = await startSandbox(sandboxOptionsFromEnv());
	console.log(`Omnichannel Messaging sandbox listening on ${url}`);
	console.log(`  Base URL: ${url}`);
	console.log(`  API key:  ${apiKey}  (header X-Service-Api-Key)`);
	console.log('  Channels: 12 "WhatsApp Sales", 13 "WhatsApp Support"; templates 101..108 on each');
	console.log(`  Limits:   ${describeLimits(service)}`);
	console.log(`  Outbox:   ${url}/outbox  (what the sandbox accepted; each also below)`);
	console.log('Press Ctrl-C to stop.');
	const stop = async () => {
		await service.close();
		process.exit(0);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

if (require.main === module) {
	main().catch((error) => {
		console.error(`sandbox: ${error.message}`);
		process.exit(1);
	});
}

module.exports = { startSandbox, sandboxOptionsFromEnv, DEFAULTS };
