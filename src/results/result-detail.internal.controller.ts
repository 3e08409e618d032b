import { RouteCaller } from '../routes/access.decorators.js';
import { InternalController, ReadRoute } from '../routes/route.decorators.js';
import { ResultAttachmentLinkListResponse } from '../attachments/dto/attachment.dto.js';
import { RequestOrigin } from '../attachments/request-origin.decorator.js';
import type { Caller } from '../common/caller.js';
import { PathId } from '../common/ids.js';
import { ResultDetailResponse } from './dto/result-detail.dto.js';
import { ResultDetailService } from './result-detail.service.js';

@InternalController()
export class ResultDetailInternalController {
  constructor(private readonly detail: ResultDetailService) {}

  /** One result with its case, run, build and defect links: the console's result page. */
  @ReadRoute('results/:id', ResultDetailResponse, { errors: [404] })
  get(@RouteCaller() caller: Caller, @PathId('result') id: string): Promise<ResultDetailResponse> {
    return this.detail.get(caller, id);
  }

  /** The result's attachments with short-lived links to their bytes: the page's evidence. */
  @ReadRoute('results/:id/attachments', ResultAttachmentLinkListResponse, { errors: [404] })
  attachments(
    @RouteCaller() caller: Caller,
    @PathId('result') id: string,
    @RequestOrigin() origin: string,
  ): Promise<ResultAttachmentLinkListResponse> {
    return this.detail.attachments(caller, id, origin);
  }
}
