import { Module } from '@nestjs/common';
import { ReleaseResults } from './release-results.js';
import { ReleaseResultsRepository } from './release-results.repository.js';

/** The results of a release's runs as the releases module reads them; only the database. */
@Module({
  providers: [ReleaseResultsRepository, ReleaseResults],
  exports: [ReleaseResults],
})
export class ReleaseResultsModule {}
