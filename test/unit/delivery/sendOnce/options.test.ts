import { Claims } from '../../../../nodes/OmnichannelMessaging/delivery/sendOnce/options';

describe('Claims', () => {
	test('the first execution holds a key; a later one gets the outcome it settles', async () => {
		const claims = new Claims();
		const first = claims.claimKeys('wf\nnode', ['a', 'b']);
		expect([...first.mine]).toEqual(['a', 'b']);
		expect(first.others.size).toBe(0);
		const later = claims.claimKeys('wf\nnode', ['b', 'c']);
		expect([...later.mine]).toEqual(['c']);
		expect([...later.others.keys()]).toEqual(['b']);
		claims.settleKey('wf\nnode', 'b', 'sent');
		await expect(later.others.get('b')).resolves.toBe('sent');
	});

	test('a settled key is free again; settling a key nobody holds does nothing', () => {
		const claims = new Claims();
		claims.claimKeys('wf\nnode', ['a']);
		claims.settleKey('wf\nnode', 'a', 'notSent');
		claims.settleKey('wf\nnode', 'a', 'unknown');
		expect([...claims.claimKeys('wf\nnode', ['a']).mine]).toEqual(['a']);
	});

	test('keys of another scope, or another instance (another process), are held apart', () => {
		const claims = new Claims();
		claims.claimKeys('wf\nnode', ['a']);
		expect([...claims.claimKeys('wf\n*', ['a']).mine]).toEqual(['a']);
		expect([...new Claims().claimKeys('wf\nnode', ['a']).mine]).toEqual(['a']);
	});
});
