import { Module } from '@nestjs/common';
import { ReleaseResults } from './release-results.js';

/** The results of a release's runs as the releases module reads them; only the database. */
@Module({
  providers: [ReleaseResults],
  exports: [ReleaseResults],
})
export class ReleaseResultsModule {}
