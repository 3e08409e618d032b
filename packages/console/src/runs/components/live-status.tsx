import type { LiveState } from '../api/runs';

/**
 * What a live stream is doing, said to screen readers too (`role="status"`): `live` is the
 * text while events arrive; a stream the browser gave up on offers to reconnect.
 */
export function LiveStatus({
  stream,
  live,
}: {
  stream: { state: LiveState; reconnect: () => void };
  live: string;
}) {
  const text = {
    connecting: 'Connecting to live updates…',
    live,
    stopped: 'Live updates stopped',
    final: 'Completed: these results are final',
  }[stream.state];
  return (
    <p className={`live live-${stream.state}`} role="status">
      {text}
      {stream.state === 'stopped' ? (
        <>
          {' '}
          <button type="button" className="secondary" onClick={stream.reconnect}>
            Reconnect
          </button>
        </>
      ) : null}
    </p>
  );
}
