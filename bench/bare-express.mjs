// The yardstick of bench/read-builds: a bare Express app answering the same JSON shape (25
// builds and a pagination object) from memory, with no authentication and no database.
import express from 'express';

const port = Number(process.argv[2] ?? 3999);
const now = new Date().toISOString();
const data = Array.from({ length: 25 }, (_, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  name: `web-shop main #${100000 - i}`,
  build_number: String(100000 - i),
  commit_sha: '9fceb02d0ae598e95dc970b74767f19372d61af8',
  branch: 'main',
  repo_url: 'https://github.com/acme/web-shop',
  status: 'assigned',
  source: 'api',
  queue_position: null,
  project_id: '00000000-0000-4000-8000-000000000001',
  release_id: '00000000-0000-4000-8000-000000000002',
  created_at: now,
  updated_at: now,
}));

const app = express();
app.get('/builds', (_req, res) => {
  res.json({ data, pagination: { total: 100000, limit: 25, offset: 0, has_more: true } });
});
app.listen(port, '127.0.0.1', () => process.stdout.write(`bare express on ${port}\n`));
