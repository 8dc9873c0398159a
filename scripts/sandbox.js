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
 */
const { FakeService } = require('../test/fake-service');
const { sandboxTemplates } = require('../test/fake-service/seed');

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

/** Starts the sandbox; `log` gets one line per finished request: "METHOD /path?query -> status". */
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
	const service = new FakeService({
		apiKey: options.apiKey,
		latencyMs: options.latencyMs,
		concurrencyLimit: options.concurrencyLimit,
		rateLimitPerSecond: options.rateLimitPerSecond,
		templates: sandboxTemplates(),
	});
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
