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

  it('attaches evidence unless --no-attachments or TM_ATTACHMENTS=false says not to', () => {
    const run = ['submit', 'a.xml', '--run-id', 'x'];
    expect(parseCommand(run)).toMatchObject({ attachments: true });
    expect(parseCommand([...run, '--no-attachments'])).toMatchObject({ attachments: false });
    expect(parseCommand(run, { TM_ATTACHMENTS: 'false' })).toMatchObject({ attachments: false });
    expect(parseCommand(run, { TM_ATTACHMENTS: ' TRUE ' })).toMatchObject({ attachments: true });
    expect(() => parseCommand(run, { TM_ATTACHMENTS: 'nope' })).toThrow(
      'TM_ATTACHMENTS is "nope": give true or false',
    );
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

  it('takes the configuration from --configuration, else TM_CONFIGURATION, trimmed; blank is none', () => {
    const submit = ['submit', 'a.xml', '--run-id', 'x'];
    const env = { TM_CONFIGURATION: ' linux / node 22 ' };
    expect(parseCommand(submit, env)).toMatchObject({ configuration: 'linux / node 22' });
    expect(parseCommand([...submit, '--configuration', 'firefox'], env)).toMatchObject({
      configuration: 'firefox',
    });
    expect(parseCommand([...submit, '--configuration', '  '], env)).toMatchObject({
      configuration: undefined,
    });
    expect(parseCommand(submit, { TM_CONFIGURATION: '' })).toMatchObject({
      configuration: undefined,
    });
    expect(() => parseCommand(submit, { TM_CONFIGURATION: 'x'.repeat(101) })).toThrow(
      'The configuration (TM_CONFIGURATION) is 101 characters long; the service takes at most 100.',
    );
    expect(() => parseCommand(['complete', '--run-id', 'x', '--configuration', 'a'])).toThrow(
      /Unknown option '--configuration'/,
    );
  });

  it('takes --repo as an https, scp-like or ssh address, and sends the https one', () => {
    const submit = ['submit', 'a.xml', '--run-id', 'x', '--repo'];
    expect(parseCommand([...submit, 'git@github.com:acme/shop.git'])).toMatchObject({
      repo: 'https://github.com/acme/shop',
    });
    expect(parseCommand([...submit, 'https://gitlab.com/acme/shop.git'])).toMatchObject({
      repo: 'https://gitlab.com/acme/shop',
    });
    expect(() => parseCommand([...submit, 'acme/shop'])).toThrow(
      '--repo acme/shop is not a repository address',
    );
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
