import { describe, expect, it } from 'vitest';
import { RUNTIME_DRIVERS } from './drivers';
import { DIALECTS } from './index';
import { toyDriver } from './toy/driver';
import { toyLoop } from './toy/read';
import { REGISTERED_RUNTIMES, withRuntime } from './with-runtime';

describe('the registry and withRuntime', () => {
  it('every driver acts on a registered runtime, and the registry is both lists', () => {
    const ids = new Set(DIALECTS.map((dialect) => dialect.id));
    expect(RUNTIME_DRIVERS.filter((driver) => !ids.has(driver.runtime))).toEqual([]);
    expect(REGISTERED_RUNTIMES).toEqual({ dialects: DIALECTS, drivers: RUNTIME_DRIVERS });
  });

  it('adds a runtime after the registered ones, its dialect and its driver, and leaves the registry as it was', () => {
    const runtimes = withRuntime({ dialect: toyLoop, driver: toyDriver });
    expect(runtimes.dialects).toEqual([...DIALECTS, toyLoop]);
    expect(runtimes.drivers).toEqual([...RUNTIME_DRIVERS, toyDriver]);
    expect(DIALECTS).not.toContain(toyLoop);
    expect(withRuntime({ dialect: toyLoop }).drivers).toBe(RUNTIME_DRIVERS);
  });

  it('refuses a driver of another runtime and a runtime registered twice', () => {
    expect(() => withRuntime({ dialect: toyLoop, driver: RUNTIME_DRIVERS[0] })).toThrow(/^The driver of runtime "genkit-go" was registered with the dialect of "toy-loop"/);
    expect(() => withRuntime({ dialect: toyLoop }, withRuntime({ dialect: toyLoop }))).toThrow('A runtime "toy-loop" is registered already.');
    expect(() => withRuntime({ dialect: DIALECTS[1] })).toThrow(`A runtime "${DIALECTS[1].id}" is registered already.`);
  });
});
