import { Module } from '@nestjs/common';
import { ReleaseLookup } from './release-lookup.js';
import { ReleasesRepository } from './releases.repository.js';

/**
 * Releases as other modules may read them. A module of its own, depending on nothing but the
 * database, so that builds and test runs can import it while releases import their look-ups.
 */
@Module({ providers: [ReleaseLookup, ReleasesRepository], exports: [ReleaseLookup] })
export class ReleaseLookupModule {}
