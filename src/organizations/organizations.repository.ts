import { Injectable } from '@nestjs/common';
import type { PaginationQuery } from '../common/pagination/pagination.js';
import { Transactions } from '../database/transactions.js';
import { Organization } from '../tenants/organization.entity.js';

/** How organizations are written and listed: the SQL of the `organization` table. */
@Injectable()
export class OrganizationsRepository {
  constructor(private readonly transactions: Transactions) {}

  /** Inserts an organization, in the caller's transaction. */
  insert(fields: Partial<Organization>): Promise<Organization> {
    const manager = this.transactions.manager;
    return manager.save(manager.create(Organization, fields));
  }

  /** A page of organizations, newest first, and the number of all of them. */
  page(query: PaginationQuery): Promise<[Organization[], number]> {
    return this.transactions.manager.findAndCount(Organization, {
      order: { createdAt: 'DESC', id: 'DESC' },
      take: query.limit,
      skip: query.offset,
    });
  }

  /** Writes the changed columns of an organization read before, in the caller's transaction. */
  save(organization: Organization): Promise<Organization> {
    return this.transactions.manager.save(organization);
  }
}
