import { describe, expect, it } from 'vitest';
import { DIALECTS } from './index';
import { driverOf, RUNTIME_DRIVERS } from './drivers';

/**
 * The two registries agree (drivers.ts promises it): every driver acts on a runtime the dialect
 * list reads, once, and a runtime Loopscope only reads has no driver.
 */
describe('RUNTIME_DRIVERS', () => {
  const dialectIds = DIALECTS.map((dialect) => dialect.id);

  it('names only registered runtimes, each once, in the registry order', () => {
    const runtimes = RUNTIME_DRIVERS.map((driver) => driver.runtime);
    expect(runtimes.filter((runtime) => !dialectIds.includes(runtime))).toEqual([]);
    expect(new Set(runtimes).size).toBe(runtimes.length);
    expect([...runtimes].sort((a, b) => dialectIds.indexOf(a) - dialectIds.indexOf(b))).toEqual(runtimes);
  });

  it('driverOf finds each driver by its runtime, and none for a runtime that is only read', () => {
    for (const driver of RUNTIME_DRIVERS) expect(driverOf(driver.runtime)).toBe(driver);
    const readOnly = dialectIds.filter((id) => !RUNTIME_DRIVERS.some((driver) => driver.runtime === id));
    expect(readOnly.length).toBeGreaterThan(0);
    for (const id of readOnly) expect(driverOf(id)).toBeUndefined();
  });
});
