/*
 * A simulated service on a virtual clock, for the pacer: no sockets, no timers, no real time.
 * Every wait is an event in one queue; between events the promise jobs run to the end
 * (setImmediate comes after all of them), so the same seed gives the same run every time.
 */
import { VirtualClock } from '../../helpers/virtualClock';

export { VirtualClock };

/** mulberry32: a small seeded generator, so a run is reproduced from its seed. */
export function seeded(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** The service: a limit on requests being served, a token bucket, or both; answers after `latencyMs`. */
export interface ServiceSpec {
	latencyMs: number;
	inFlightLimit?: number;
	ratePerSecond?: number;
	/** The Retry-After of a refusal: '0', '1', or none. */
	retryAfter?: string;
	/** Refuse with 503 (and the Retry-After) instead of 429. */
	status?: 429 | 503;
	/** Each way, every request spends a random 0..jitterMs on the network: arrival order is shuffled. */
	jitterMs: number;
	/**
	 * The first `count` requests of the run spend `extraMs` more on the way there: a fresh process
	 * opens its first connections slowly, and later requests overtake them.
	 */
	coldRequests?: { count: number; extraMs: number };
	/** From this time on, the in-flight limit is `to`. */
	limitDrop?: { atMs: number; to: number };
}

export interface Arrival {
	at: number;
	sender: number;
	message: string;
	taken: boolean;
	/** Requests being served when it arrived, itself not counted. */
	beingServed: number;
}

export class SimService {
	readonly arrivals: Arrival[] = [];

	readonly takenCount = new Map<string, number>();

	private serving = 0;

	private tokens: number;

	private tokensAt = 0;

	/** Time integral of the requests being served, for the average in flight. */
	private busyArea = 0;

	private busyAt = 0;

	private sent = 0;

	constructor(
		private readonly clock: VirtualClock,
		private readonly spec: ServiceSpec,
		private readonly random: () => number,
	) {
		this.tokens = spec.ratePerSecond ?? 0;
	}

	limitAt(time: number): number {
		const drop = this.spec.limitDrop;
		return drop && time >= drop.atMs
			? drop.to
			: (this.spec.inFlightLimit ?? Number.POSITIVE_INFINITY);
	}

	averageServing(until: number): number {
		return until > 0 ? (this.busyArea + this.serving * (until - this.busyAt)) / until : 0;
	}

	request(
		sender: number,
		message: string,
	): Promise<{ statusCode: number; headers: Record<string, unknown> }> {
		return new Promise((resolve) => {
			const now = this.clock.now();
			const cold =
				this.sent++ < (this.spec.coldRequests?.count ?? 0)
					? (this.spec.coldRequests?.extraMs ?? 0)
					: 0;
			this.clock.at(now + cold + this.random() * this.spec.jitterMs, () => {
				const answer = this.arrive(sender, message);
				this.clock.at(this.clock.now() + this.spec.latencyMs, () => {
					if (answer.statusCode === 200) this.setServing(-1);
					this.clock.at(this.clock.now() + this.random() * this.spec.jitterMs, () =>
						resolve(answer),
					);
				});
			});
		});
	}

	private arrive(
		sender: number,
		message: string,
	): { statusCode: number; headers: Record<string, unknown> } {
		const now = this.clock.now();
		const arrival: Arrival = { at: now, sender, message, taken: false, beingServed: this.serving };
		this.arrivals.push(arrival);
		if (!this.takeToken(now) || this.serving >= this.limitAt(now)) {
			const headers =
				this.spec.retryAfter === undefined ? {} : { 'retry-after': this.spec.retryAfter };
			return { statusCode: this.spec.status ?? 429, headers };
		}
		arrival.taken = true;
		this.setServing(1);
		this.takenCount.set(message, (this.takenCount.get(message) ?? 0) + 1);
		return { statusCode: 200, headers: {} };
	}

	private setServing(change: number): void {
		const now = this.clock.now();
		this.busyArea += this.serving * (now - this.busyAt);
		this.busyAt = now;
		this.serving += change;
	}

	/** A bucket holding one second's worth, refilled continuously; a refused request takes no token. */
	private takeToken(now: number): boolean {
		const rate = this.spec.ratePerSecond;
		if (!rate) return true;
		this.tokens = Math.min(rate, this.tokens + ((now - this.tokensAt) / 1000) * rate);
		this.tokensAt = now;
		if (this.tokens < 1) return false;
		this.tokens -= 1;
		return true;
	}
}
