import { parseCommand } from './args.js';

describe('command line', () => {
  it('reads submit with globs and options', () => {
    expect(
      parseCommand([
        'submit',
        'a/**/*.xml',
        'b.json',
        '--project',
        'WEB',
        '--run-name',
        'e2e',
        '--gate',
        '--complete',
      ]),
    ).toMatchObject({
      name: 'submit',
      patterns: ['a/**/*.xml', 'b.json'],
      project: 'WEB',
      runName: 'e2e',
      gate: true,
      complete: true,
      dryRun: false,
    });
  });

  it('refuses what cannot work, saying why', () => {
    expect(() => parseCommand(['submit', 'a.xml', '--run-name', 'e2e'])).toThrow(
      '--run-name needs --project',
    );
    expect(() => parseCommand(['submit', 'a.xml', '--project', 'WEB'])).toThrow('Name the run');
    expect(() => parseCommand(['submit', '--project', 'WEB', '--run-id', 'x'])).toThrow(
      'Name the reports',
    );
    expect(() => parseCommand(['complete', '--run-id', 'x', '--bogus'])).toThrow(
      /Unknown option '--bogus'/,
    );
    expect(() => parseCommand(['upload'])).toThrow('Unknown command "upload"');
  });

  it('checks reports without a run in a dry run', () => {
    expect(parseCommand(['submit', '--dry-run', 'a.xml'])).toMatchObject({
      name: 'submit',
      dryRun: true,
    });
  });

  it('has help for every command', () => {
    expect(parseCommand([])).toMatchObject({ name: 'help' });
    expect(parseCommand(['submit', '--help'])).toMatchObject({
      name: 'help',
      text: expect.stringContaining('--dry-run'),
    });
    expect(parseCommand(['complete', '-h'])).toMatchObject({
      name: 'help',
      text: expect.stringContaining('tm-report complete'),
    });
  });
});
