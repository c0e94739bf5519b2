import { StreamQuota } from './stream-quota';

describe('StreamQuota', () => {
  it('refuses a stream over the address limit until one is released', () => {
    const quota = new StreamQuota(2, 0);
    const a = quota.acquire('1.2.3.4', undefined);
    const b = quota.acquire('1.2.3.4', undefined);
    expect(quota.acquire('1.2.3.4', undefined)).toBeNull();
    expect(quota.acquire('5.6.7.8', undefined)).not.toBeNull();
    a!.release();
    a!.release(); // releasing twice counts once
    expect(quota.acquire('1.2.3.4', undefined)).not.toBeNull();
    expect(quota.acquire('1.2.3.4', undefined)).toBeNull();
    expect(b).not.toBeNull();
  });

  it('counts a token across addresses, and a refused stream takes nothing', () => {
    const quota = new StreamQuota(3, 1);
    expect(quota.acquire('1.1.1.1', 'bsk_x')).not.toBeNull();
    expect(quota.acquire('2.2.2.2', 'bsk_x')).toBeNull();
    // The refusal above did not count against 2.2.2.2.
    for (let i = 0; i < 3; i++) expect(quota.acquire('2.2.2.2', undefined)).not.toBeNull();
    expect(quota.acquire('2.2.2.2', undefined)).toBeNull();
  });

  it('0 turns a limit off', () => {
    const quota = new StreamQuota(0, 0);
    for (let i = 0; i < 1000; i++) expect(quota.acquire('1.1.1.1', 'bsk_x')).not.toBeNull();
  });
});
