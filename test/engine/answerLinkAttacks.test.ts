/*
 * What a scanner or a link's holder can send the Omnichannel Messaging Trigger, through n8n-core's
 * WebhookContext: tokens that are no link, forged ones and none cost no more credential reads
 * than the interval allows and start nothing; a rotated API key applies within it; an answer in
 * the query is no answer, where Send and Wait's signed query still is.
 */
import { randomBytes, randomInt } from 'node:crypto';

import type { INodeParameters } from 'n8n-workflow';

import { LINK_KEY_REREAD_MS, linkKey } from '../../nodes/OmnichannelMessaging/answerLinks/token';
import { waitingMessage } from '../helpers/fixtures';
import {
	APPROVAL,
	CREDENTIALS,
	TRIGGER,
	approve,
	callTrigger,
	token,
} from '../helpers/triggerCall';
import { callWebhook } from '../helpers/webhookCall';
import type { WebhookAnswer, WebhookRequest } from '../helpers/webhookCall';

/*
 * What links cost in credential reads, counted by the engine harness's credentials helper (n8n's
 * own reads the credential's row and decrypts it on every read). The engine's clock is the test's:
 * Date alone is faked, every timer stays real. Each test has a credential of its own, as the
 * trigger's kept keys outlive a test.
 */
describe("the Omnichannel Messaging Trigger's credential reads", () => {
	const REAL_TIMERS = [
		'hrtime',
		'nextTick',
		'performance',
		'queueMicrotask',
		'setImmediate',
		'clearImmediate',
		'setInterval',
		'clearInterval',
		'setTimeout',
		'clearTimeout',
	] as const;

	/** Fixes the engine's clock at now; the returned function moves it to `ms` after that. */
	function clock() {
		const start = Date.now();
		jest.useFakeTimers({ now: start, doNotFake: [...REAL_TIMERS] });
		return (ms: number) => jest.setSystemTime(start + ms);
	}

	afterEach(() => jest.useRealTimers());

	/** Requests to the trigger under one credential ID, their credential reads summed. */
	function requests(credentialId: string) {
		const counted = { reads: 0 };
		const send = async (request: WebhookRequest, credentials = CREDENTIALS) => {
			const answer = await callTrigger(APPROVAL, { credentials, ...request }, credentialId);
			counted.reads += answer.credentialReads;
			return answer;
		};
		return Object.assign(counted, { send });
	}

	/**
	 * What a scanner sends, never a link's shape: text with characters base64url has not, or
	 * base64url of bytes with a version no link has, or of a length no link has.
	 */
	const junk = () => {
		const bytes = randomBytes(randomInt(1, 300));
		const kind = randomInt(3);
		if (kind === 0) return `${bytes.toString('base64url')}${'+/=.% '[randomInt(6)]}`;
		bytes[0] = kind === 1 ? randomInt(3, 256) : randomInt(1, 3);
		if (kind === 2 && bytes.length >= 39 && bytes.length <= 117)
			return bytes.subarray(0, 38).toString('base64url');
		return bytes.toString('base64url');
	};
	/** A token of a version and a byte length a link has, sealed by no one. */
	const forged = () => {
		const [version, least, most] = randomInt(2) ? [1, 39, 117] : [2, 40, 116];
		const bytes = randomBytes(randomInt(least, most + 1));
		bytes[0] = version;
		return bytes.toString('base64url');
	};

	const expectRefused = (answer: WebhookAnswer) => {
		expect(answer.status).toBe(400);
		expect(answer.result).toEqual({ noWebhookResponse: true });
		expect(answer.page).toContain('This link is not valid');
	};

	test(`junk, forged or no tokens: a credential read per ${LINK_KEY_REREAD_MS} ms at most, none started`, async () => {
		const at = clock();
		const trigger = requests('cred-flood');
		for (let index = 0; index < 100; index++) {
			const method = index % 2 === 0 ? 'GET' : 'POST';
			expectRefused(await trigger.send({ method, query: { a: junk() }, body: {} }));
			expectRefused(await trigger.send({ method, query: {}, body: { approved: 'true' } }));
		}
		// Junk and no token cost no read, even before any key is kept.
		expect(trigger.reads).toBe(0);
		for (let index = 0; index < 100; index++) {
			at(index * 40);
			const method = index % 2 === 0 ? 'GET' : 'POST';
			expectRefused(await trigger.send({ method, query: { a: forged() }, body: {} }));
		}
		// The first forged token found no key kept; the 99 after it, within the interval, read nothing.
		expect(trigger.reads).toBe(1);
		const answer = await trigger.send(approve(token()));
		expect(answer.result.workflowData?.[0]).toHaveLength(1);
		expect(trigger.reads).toBe(1);
		at(LINK_KEY_REREAD_MS);
		expectRefused(await trigger.send({ method: 'POST', query: { a: forged() }, body: {} }));
		expect(trigger.reads).toBe(2);
	});

	test(`a changed API key applies ${LINK_KEY_REREAD_MS} ms after the credential was last read`, async () => {
		const at = clock();
		const trigger = requests('cred-rotated');
		const before = token();
		expect((await trigger.send(approve(before))).status).toBe(200);
		expect(trigger.reads).toBe(1);
		const rotated = { ...CREDENTIALS, apiKey: 'sk-live-omni-rotated-1234567890' };
		const after = token({}, linkKey(rotated.apiKey, TRIGGER));
		at(1_000);
		expectRefused(await trigger.send(approve(after), rotated));
		at(LINK_KEY_REREAD_MS - 1);
		expectRefused(await trigger.send(approve(after), rotated));
		expect(trigger.reads).toBe(1);
		at(LINK_KEY_REREAD_MS);
		const answer = await trigger.send(approve(after), rotated);
		expect(answer.status).toBe(200);
		expect(answer.result.workflowData?.[0]).toHaveLength(1);
		expect(trigger.reads).toBe(2);
		// The replaced key's links are refused from then on.
		at(LINK_KEY_REREAD_MS + 1);
		expectRefused(await trigger.send(approve(before), rotated));
		expect(trigger.reads).toBe(2);
	});
});

const CHOICE: INodeParameters = {
	responseType: 'choice',
	choiceOptions: { values: [{ label: 'Confirm' }, { label: 'Reschedule' }, { label: 'Cancel' }] },
	options: { responseFormDescription: 'Your appointment on Tuesday at 10:00' },
};

const NOT_A_BUTTON = 'Nothing was recorded: tap one of the buttons below.';

describe("the Omnichannel Messaging Trigger's answer comes from the page's form only", () => {
	test('a POST whose query answers and whose body does not records nothing: the page again (400)', async () => {
		for (const [parameters, query] of [
			[CHOICE, { choice: '2' }],
			[APPROVAL, { approved: 'true' }],
		] as const) {
			const answer = await callTrigger(parameters, {
				method: 'POST',
				query: { a: token(), ...query },
				body: {},
			});
			expect(answer.status).toBe(400);
			expect(answer.result).toEqual({ noWebhookResponse: true });
			expect(answer.page).toContain(`<p class="alert" role="alert">${NOT_A_BUTTON}</p>`);
			expect(answer.page?.match(/<button /g)).toHaveLength(parameters === CHOICE ? 3 : 2);
		}
	});

	test("the form's answer is recorded, whatever the query says", async () => {
		const answer = await callTrigger(CHOICE, {
			method: 'POST',
			query: { a: token(), choice: '2' },
			body: { choice: '0' },
		});
		expect(answer.status).toBe(200);
		expect(answer.result.workflowData?.[0][0].json.data).toMatchObject({ choice: 'Confirm' });
	});

	test('a GET with an answer in its query shows every button', async () => {
		const answer = await callTrigger(APPROVAL, {
			method: 'GET',
			query: { a: token(), approved: 'true' },
		});
		expect(answer.status).toBe(200);
		expect(answer.page).toContain('value="true" class="primary" dir="auto">✓ Approve</button>');
		expect(answer.page).toContain('value="false" dir="auto">✗ Decline</button>');
	});
});

describe("Send and Wait's signed query answers as before", () => {
	const ask = waitingMessage('Refund 42 EUR?', {
		approvalOptions: { values: { approvalType: 'double' } },
	});

	test("an Approval link's signed value is the answer: with an empty body, and over the form's", async () => {
		for (const body of [{}, { approved: 'false' }]) {
			const answer = await callWebhook(ask(), {
				method: 'POST',
				query: { approved: 'true' },
				body,
			});
			expect(answer.status).toBe(200);
			expect(answer.result.workflowData).toEqual([
				[{ json: { data: { approved: true, respondedAt: expect.any(String) } } }],
			]);
			expect(answer.page).toContain('Recorded: ✓ Approve');
		}
	});

	test('a GET of an Approval link shows its signed button only', async () => {
		const answer = await callWebhook(ask(), { method: 'GET', query: { approved: 'false' } });
		expect(answer.page).toContain('value="false" dir="auto">✗ Decline</button>');
		expect(answer.page).not.toContain('✓ Approve');
	});
});
