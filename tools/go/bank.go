package tools

import (
	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
)

type TransferInput struct {
	To        string  `json:"to"`
	AmountUsd float64 `json:"amountUsd"`
}

type Transfer struct {
	Status     string  `json:"status"`
	To         string  `json:"to"`
	AmountUsd  float64 `json:"amountUsd"`
	ApprovedBy string  `json:"approvedBy,omitempty"`
}

// ApprovalRequired is the typed interrupt data of transferMoney (an object: genkit Go keeps interrupt data as map[string]any).
type ApprovalRequired struct {
	Reason    string  `json:"reason"`
	AmountUsd float64 `json:"amountUsd"`
}

// defineTransferMoney interrupts for amounts over 100 USD until restarted with resumed data
// {approved: true, approvedBy}: ai.InterruptWith, then ai.ResumedValue on the restart.
func defineTransferMoney(g *genkit.Genkit) ai.Tool {
	return genkit.DefineTool(g, "transferMoney", "Sends money; amounts over 100 USD need approval.", func(ctx *ai.ToolContext, in TransferInput) (Transfer, error) {
		if in.AmountUsd > 100 {
			approved, _ := ai.ResumedValue[bool](ctx, "approved")
			if !approved {
				return Transfer{}, ai.InterruptWith(ctx, ApprovalRequired{Reason: "approval-required", AmountUsd: in.AmountUsd})
			}
			by, _ := ai.ResumedValue[string](ctx, "approvedBy")
			return Transfer{Status: "done", To: in.To, AmountUsd: in.AmountUsd, ApprovedBy: by}, nil
		}
		return Transfer{Status: "done", To: in.To, AmountUsd: in.AmountUsd}, nil
	})
}
