'use strict';
/*
 * A fake of the Omnichannel Messaging service, written from test/fixtures/spec/service-api.md and
 * test/fixtures/spec/field-notes.md. It is strict: wrong header -> 401, wrong types or missing fields -> 400 with
 * {error, code, success:false}. It records every request and can misbehave on demand.
 *
 * Two limits, each off unless set, as a service behind an API gateway has them:
 * - concurrencyLimit: requests being served at once (any method); one more gets 429 with
 *   Retry-After: retryAfter. A refused request holds no slot: a limiter (nginx limit_conn, a worker
 *   pool) turns it away without serving it, so only admitted requests count against the limit.
 * - rateLimitPerSecond: a token bucket on the send endpoints (POST). It holds rateLimitBurst tokens
 *   (default: one second's worth, at least 1), starts full and refills continuously; a send takes
 *   one token when it arrives, and a send that finds none gets 429 with Retry-After = the seconds
 *   until the next token, rounded up to a whole number (RFC 9110 delay-seconds), at least 1. That is
 *   what Django REST framework's throttling answers (the service's `detail` bodies are DRF's), and
 *   Kong's rate limiting likewise sends whole seconds. A rejected send takes no token.
 * Both answers come after latencyMs, like any other: the round trip is the network's. A request
 * that meets a fault (addFault) bypasses both limits.
 *
 * admitJitterMs: each request waits a random 0..admitJitterMs before the service looks at it
 * (recorded, counted against the limits), as connection set-up and a real network delay requests
 * by different amounts: they reach the service in another order than they were sent.
 */
const { LocalServer } = require('../helpers/localServer');
const { demoTemplates, demoChannels } = require('./seed');

const PREFIX = '/stable/open';
const MEDIA_KEYS = ['image', 'audio', 'video', 'document'];

/** The record of requests served over time (countAdmitted), before the first request. */
function emptyOccupancy() {
	return {
		area: 0,
		at: 0,
		firstAt: undefined,
		lastAt: undefined,
		firstRefusalAt: undefined,
		belowLimitMs: 0,
	};
}

class FakeService extends LocalServer {
	constructor(options = {}) {
		super('', { idleTimeoutMs: options.idleTimeoutMs });
		this.apiKey = options.apiKey ?? 'test-api-key-0123456789';
		this.apiKeyHeader = (options.apiKeyHeader ?? 'X-Service-Api-Key').toLowerCase();
		this.projectId = options.projectId ?? 4242;
		this.latencyMs = options.latencyMs ?? 0;
		this.concurrencyLimit = options.concurrencyLimit ?? Infinity;
		this.retryAfter = options.retryAfter ?? '1';
		this.rateLimitPerSecond = options.rateLimitPerSecond ?? Infinity;
		this.rateLimitBurst = options.rateLimitBurst;
		this.admitJitterMs = options.admitJitterMs ?? 0;
		// Injectable so a test can hold time still and count tokens exactly.
		this.clock = options.clock ?? (() => performance.now());
		this.log = options.log ?? null;
		this.channels = options.channels ?? demoChannels();
		this.templates = new Map();
		for (const channel of this.channels) {
			this.templates.set(
				channel.platform_id,
				options.templates?.[channel.platform_id] ?? demoTemplates(),
			);
		}
		this.requests = [];
		this.faults = [];
		this.inFlight = 0;
		this.peakInFlight = 0;
		// Requests being served: what the in-flight limit counts (inFlight also counts refused ones).
		this.admitted = 0;
		this.tooMany = { inFlight: 0, rate: 0 };
		this.occupancy = emptyOccupancy();
		this.refillBucket();
		this.messageCounter = 0;
	}

	/** Clears the records and counters, and fills the token bucket, so each test or run starts alike. */
	reset() {
		this.requests = [];
		this.faults = [];
		this.peakInFlight = 0;
		this.tooMany = { inFlight: 0, rate: 0 };
		this.occupancy = emptyOccupancy();
		this.refillBucket();
	}

	/**
	 * Requests being served, over time: their average from the first admitted request to the last
	 * answer, and how long after the first 429 fewer than the in-flight limit were being served.
	 */
	countAdmitted(change, refused = false) {
		const now = performance.now();
		const o = this.occupancy;
		if (o.firstAt !== undefined) {
			o.area += this.admitted * (now - o.at);
			if (o.firstRefusalAt !== undefined && this.admitted < this.concurrencyLimit)
				o.belowLimitMs += now - o.at;
		}
		o.at = now;
		if (change > 0) o.firstAt ??= now;
		if (refused) o.firstRefusalAt ??= now;
		this.admitted += change;
		if (o.firstAt !== undefined) o.lastAt = now;
	}

	occupancyFigures() {
		const o = this.occupancy;
		const span = o.firstAt === undefined ? 0 : o.lastAt - o.firstAt;
		return { averageServing: span > 0 ? o.area / span : 0, belowLimitAfterBurstMs: o.belowLimitMs };
	}

	/** Changes the limits of a running service (the bench reuses one service for rows with different limits). */
	setLimits({ concurrencyLimit, retryAfter, rateLimitPerSecond, rateLimitBurst } = {}) {
		if (concurrencyLimit !== undefined) this.concurrencyLimit = concurrencyLimit ?? Infinity;
		if (retryAfter !== undefined) this.retryAfter = retryAfter;
		if (rateLimitPerSecond !== undefined) this.rateLimitPerSecond = rateLimitPerSecond ?? Infinity;
		if (rateLimitBurst !== undefined) this.rateLimitBurst = rateLimitBurst ?? undefined;
		this.refillBucket();
	}

	bucketCapacity() {
		return this.rateLimitBurst ?? Math.max(1, this.rateLimitPerSecond);
	}

	refillBucket() {
		this.tokens = this.bucketCapacity();
		this.tokensAt = this.clock();
	}

	/** Takes a token for a send; without one, answers the seconds until the next (Retry-After). */
	takeToken() {
		if (!Number.isFinite(this.rateLimitPerSecond)) return { ok: true };
		const now = this.clock();
		this.tokens = Math.min(
			this.bucketCapacity(),
			this.tokens + ((now - this.tokensAt) / 1000) * this.rateLimitPerSecond,
		);
		this.tokensAt = now;
		if (this.tokens >= 1) {
			this.tokens -= 1;
			return { ok: true };
		}
		const waitSeconds = (1 - this.tokens) / this.rateLimitPerSecond;
		return { ok: false, retryAfter: Math.max(1, Math.ceil(waitSeconds - 1e-9)) };
	}

	/**
	 * Misbehave on the next `times` requests matching `path` (suffix below /stable/open, or '*').
	 * fault: { status, headers, body } | { kind: 'reset-before' | 'reset-after-read' | 'hang' |
	 * 'trickle' | 'invalid-json' | 'empty' | 'huge' | 'html' }. `skip` lets that many matching
	 * requests through first.
	 */
	addFault(path, fault, times = 1, skip = 0) {
		this.faults.push({ path, fault, times, skip });
	}

	setTemplates(channelId, templates) {
		this.templates.set(channelId, templates);
		if (!this.channels.some((c) => c.platform_id === channelId)) {
			this.channels.push({
				platform_id: channelId,
				title: `Channel ${channelId}`,
				number: '+4930000000',
			});
		}
	}

	sends(path) {
		return this.requests.filter((r) => r.method === 'POST' && (!path || r.path === PREFIX + path));
	}

	takeFault(path) {
		const index = this.faults.findIndex((f) => f.path === '*' || PREFIX + f.path === path);
		if (index === -1) return undefined;
		const entry = this.faults[index];
		if (entry.skip > 0) {
			entry.skip -= 1;
			return undefined;
		}
		entry.times -= 1;
		if (entry.times <= 0) this.faults.splice(index, 1);
		return entry.fault;
	}

	handle(req, res) {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			if (this.admitJitterMs > 0)
				setTimeout(() => this.admit(req, res, chunks), Math.random() * this.admitJitterMs);
			else this.admit(req, res, chunks);
		});
	}

	/** The service looks at a request: records it, applies the limits and faults, and answers after latencyMs. */
	admit(req, res, chunks) {
		const url = new URL(req.url, 'http://fake');
		const rawBody = Buffer.concat(chunks).toString('utf8');
		const record = {
			method: req.method,
			path: url.pathname,
			query: Object.fromEntries(url.searchParams),
			headers: req.headers,
			rawBody,
			body: undefined,
			time: Date.now(),
		};
		if (rawBody) {
			try {
				record.body = JSON.parse(rawBody);
			} catch {
				record.body = undefined;
			}
		}
		this.requests.push(record);
		if (this.log) this.log(record);
		this.inFlight += 1;
		this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
		record.inFlight = this.inFlight;
		const fault = this.takeFault(url.pathname);
		const token = fault || req.method !== 'POST' ? { ok: true } : this.takeToken();
		const overLimit = !fault && token.ok && this.admitted >= this.concurrencyLimit;
		const admitted = !fault && token.ok && !overLimit;
		if (admitted) this.countAdmitted(1);
		else if (overLimit) this.countAdmitted(0, true);
		const finish = (status, body, headers = {}) => {
			this.inFlight -= 1;
			if (admitted) this.countAdmitted(-1);
			record.status = status;
			if (res.destroyed) return;
			const payload = typeof body === 'string' ? body : JSON.stringify(body);
			res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
			res.end(payload);
		};
		const run = () => {
			if (fault) return this.applyFault(fault, req, res, record, finish);
			if (!token.ok) {
				this.tooMany.rate += 1;
				record.limitedBy = 'rate';
				const unit = token.retryAfter === 1 ? 'second' : 'seconds';
				return finish(
					429,
					{ detail: `Request was throttled. Expected available in ${token.retryAfter} ${unit}.` },
					{ 'Retry-After': String(token.retryAfter) },
				);
			}
			if (overLimit) {
				this.tooMany.inFlight += 1;
				record.limitedBy = 'in-flight';
				return finish(429, { detail: 'Too many requests.' }, { 'Retry-After': this.retryAfter });
			}
			const [status, body, headers] = this.route(record);
			finish(status, body, headers);
		};
		if (this.latencyMs > 0) setTimeout(run, this.latencyMs);
		else run();
	}

	applyFault(fault, req, res, record, finish) {
		const done = () => {
			this.inFlight -= 1;
			record.status = fault.kind ?? fault.status;
		};
		switch (fault.kind) {
			case 'reset-before':
			case 'reset-after-read':
				done();
				req.socket.destroy();
				return;
			case 'hang':
				done();
				return; // never answers; the client's timeout must end it
			case 'trickle': {
				done();
				res.writeHead(200, { 'Content-Type': 'application/json' });
				const timer = setInterval(() => {
					if (res.destroyed) return clearInterval(timer);
					res.write(' ');
				}, fault.intervalMs ?? 200);
				res.on('close', () => clearInterval(timer));
				return;
			}
			case 'invalid-json':
				return finish(200, '{"id": "msg_1", "status": ', {});
			case 'empty':
				return finish(200, '', {});
			case 'html':
				return finish(
					fault.status ?? 502,
					`<!DOCTYPE html><html><head><title>502 Bad ` +
						`Gateway</title><style>body{}</style></head><body><h1>502 Bad ` +
						`Gateway</h1><p>${'nginx '.repeat(200)}</p></body></html>`,
					{ 'Content-Type': 'text/html' },
				);
			case 'huge':
				return finish(
					200,
					JSON.stringify({ id: 'msg_huge', padding: 'x'.repeat(fault.bytes ?? 10 * 1024 * 1024) }),
				);
			default:
				return finish(
					fault.status ?? 500,
					fault.body ?? { error: 'Internal error', code: 'internal_error', success: false },
					fault.headers ?? {},
				);
		}
	}

	route(record) {
		const key = record.headers[this.apiKeyHeader];
		if (key !== this.apiKey) return [401, { detail: 'Invalid api key provided.' }];
		const bad = (error, code) => [400, { error, code, success: false }];
		const path = record.path.startsWith(PREFIX) ? record.path.slice(PREFIX.length) : null;
		if (record.method === 'POST') {
			if (!String(record.headers['content-type'] ?? '').includes('application/json')) {
				return bad('Content-Type must be application/json', 'invalid_content_type');
			}
			if (
				record.body === undefined ||
				typeof record.body !== 'object' ||
				Array.isArray(record.body)
			) {
				return bad('Request body must be a JSON object', 'invalid_body');
			}
		}
		const route = `${record.method} ${path}`;
		switch (route) {
			case 'POST /customers/send-text-message':
				return this.sendText(record.body, bad);
			case 'POST /customers/send-attachment-message':
				return this.sendAttachment(record.body, bad);
			case 'POST /whatsapp/send-template-message':
				return this.sendTemplate(record.body, bad);
			case 'GET /whatsapp/get-template-detail':
				return this.templateDetail(record.query, bad);
			case 'GET /whatsapp/get-template-list':
				return this.templateList(record.query, bad);
			case 'GET /whatsapp/get-platform-list':
				return [200, this.channels];
			default:
				return [404, { detail: 'Not found.' }];
		}
	}

	result(functionName, message, status, extra) {
		this.messageCounter += 1;
		return [
			200,
			{
				id: `msg_${String(this.messageCounter).padStart(8, '0')}`,
				project_id: this.projectId,
				timestamp: new Date().toISOString(),
				function_name: functionName,
				message,
				status,
				extra: { ...extra, success: true },
			},
		];
	}

	checkFields(body, allowed, bad) {
		const unknown = Object.keys(body).filter((k) => !allowed.includes(k));
		return unknown.length
			? bad(`Unexpected field(s): ${unknown.join(', ')}`, 'unexpected_field')
			: null;
	}

	/** A message send's body has only the `allowed` fields and a customer ID: its value, or the error answer. */
	customerOf(body, allowed, bad) {
		const unknown = this.checkFields(body, allowed, bad);
		return unknown ? { error: unknown } : this.customerId(body, bad);
	}

	customerId(body, bad) {
		if (typeof body.customer_id !== 'string')
			return { error: bad('customer_id must be a string', 'invalid_customer_id') };
		if (!/^\d+$/.test(body.customer_id))
			return { error: bad('Customer not found', 'customer_not_found') };
		return { value: Number(body.customer_id) };
	}

	sendText(body, bad) {
		const customer = this.customerOf(body, ['customer_id', 'text'], bad);
		if (customer.error) return customer.error;
		if (typeof body.text !== 'string' || body.text === '')
			return bad('text must be a non-empty string', 'invalid_text');
		return this.result('send_text_message', 'Message sent', 'sent', {
			customer_id: customer.value,
		});
	}

	sendAttachment(body, bad) {
		const fields = ['customer_id', 'attachment_type', 'attachment_url'];
		const customer = this.customerOf(body, fields, bad);
		if (customer.error) return customer.error;
		if (!['image', 'video', 'document'].includes(body.attachment_type)) {
			return bad(
				'attachment_type must be one of image, video, document',
				'invalid_attachment_type',
			);
		}
		if (
			typeof body.attachment_url !== 'string' ||
			!/^https?:\/\/[^\s]+$/.test(body.attachment_url)
		) {
			return bad('attachment_url must be a public http(s) URL', 'invalid_attachment_url');
		}
		return this.result('send_attachment_message', 'Attachment sent', 'sent', {
			customer_id: customer.value,
		});
	}

	sendTemplate(body, bad) {
		const unknown = this.checkFields(
			body,
			['template_id', 'channel_id', 'customer_phone', 'attributes', 'attachment'],
			bad,
		);
		if (unknown) return unknown;
		for (const field of ['template_id', 'channel_id', 'customer_phone']) {
			if (typeof body[field] !== 'string' || body[field] === '')
				return bad(`${field} must be a non-empty string`, `invalid_${field}`);
		}
		if (!/^\+[1-9]\d{6,14}$/.test(body.customer_phone))
			return bad('customer_phone must start with + and the country code', 'invalid_phone');
		const templates = this.templates.get(Number(body.channel_id));
		if (!/^\d+$/.test(body.channel_id) || !templates)
			return bad('Channel not found', 'channel_not_found');
		if (!/^\d+$/.test(body.template_id))
			return bad('template_id must be numeric', 'invalid_template_id');
		const template = templates.find((t) => t.id === Number(body.template_id));
		if (!template) return bad('Template not found', 'template_not_found');
		if (body.attributes !== undefined) {
			if (
				typeof body.attributes !== 'object' ||
				body.attributes === null ||
				Array.isArray(body.attributes)
			) {
				return bad('attributes must be an object', 'invalid_attributes');
			}
			for (const [k, v] of Object.entries(body.attributes)) {
				if (!/^[1-9]\d*$/.test(k) || typeof v !== 'string')
					return bad('attributes must map positions to strings', 'invalid_attributes');
			}
		}
		if (body.attachment !== undefined) {
			const a = body.attachment;
			const keys = a && typeof a === 'object' && !Array.isArray(a) ? Object.keys(a) : [];
			if (
				keys.length !== 1 ||
				!MEDIA_KEYS.includes(keys[0]) ||
				typeof a[keys[0]] !== 'string' ||
				!/^https?:\/\//.test(a[keys[0]])
			) {
				return bad(
					'attachment must have exactly one of image, audio, video, document with a URL',
					'invalid_attachment',
				);
			}
		}
		return this.result('send_template_message', 'Template message queued', 'ongoing', {
			platform_id: Number(body.channel_id),
			customer_id: 900000 + (this.messageCounter % 1000),
			customer_phone: body.customer_phone,
			template_id: body.template_id,
		});
	}

	intParam(query, name, bad) {
		const raw = query[name];
		if (raw === undefined || !/^\d+$/.test(raw))
			return { error: bad(`${name} must be an integer`, `invalid_${name}`) };
		return { value: Number(raw) };
	}

	templateDetail(query, bad) {
		const platform = this.intParam(query, 'platform_id', bad);
		if (platform.error) return platform.error;
		const template = this.intParam(query, 'template_id', bad);
		if (template.error) return template.error;
		const found = (this.templates.get(platform.value) ?? []).find((t) => t.id === template.value);
		return found ? [200, found] : [404, { detail: 'Not found.' }];
	}

	templateList(query, bad) {
		const platform = this.intParam(query, 'platform_id', bad);
		if (platform.error) return platform.error;
		const list = this.templates.get(platform.value);
		return list ? [200, list] : [404, { detail: 'Not found.' }];
	}
}

async function startFakeService(options) {
	const service = new FakeService(options);
	await service.start(options?.port ?? 0, options?.host);
	return service;
}

module.exports = { FakeService, startFakeService, PREFIX };
